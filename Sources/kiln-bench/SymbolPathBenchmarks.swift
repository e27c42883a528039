import KilnRaster
import KilnSymbols
import KilnText

/// The choice of path rasterizer measured on what it draws: every layer of every shipped symbol
/// at 96 and 200 px (icon sizes of a 1080p frame), composited source-over into 8-row bands of
/// premultiplied Float planes as the symbol layer does. Kiln's row builds each shape's edges
/// (strokes outlined) and paints it; FreeType's row builds the same outline, fills FreeType's
/// 8-bit grid of the symbol's box and composites that grid into the bands: the whole of what using
/// FreeType for rendering would take. Reported per covered pixel of the set.
@MainActor func measureSymbolPaths() {
    let kilnName = "symbols: Kiln outline+coverage+composite"
    let freetypeName = "symbols: FreeType outline+grid+composite"
    guard wants(kilnName, freetypeName) else { return }
    guard let freetype = FreeTypeOutlineRasterizer() else { fail("FreeType did not start") }
    struct Shape {
        let path: VectorPath
        let rule: FillRule
        let stroke: StrokeStyle?
        let place: Affine2D
        let side: Int
    }
    var shapes: [Shape] = []
    var covered = 0
    for name in SymbolCatalog.shippedNames {
        guard let artwork = SymbolCatalog.shipped(name) else { continue }
        for size in [96.0, 200.0] {
            let scale = size / 100
            let side = Int((max(artwork.size.x, artwork.size.y) * scale).rounded(.up)) + 4
            let place = Affine2D.translation(2, 2).concatenating(.scale(scale, scale))
            for layer in artwork.layers {
                for shape in layer.shapes {
                    if let rule = shape.fill {
                        shapes.append(
                            Shape(path: shape.path, rule: rule, stroke: nil, place: place, side: side))
                    }
                    if let stroke = shape.stroke {
                        shapes.append(
                            Shape(path: shape.path, rule: .nonZero, stroke: stroke, place: place, side: side))
                    }
                }
            }
        }
    }
    func outline(_ s: Shape) -> VectorPath {
        guard var stroke = s.stroke else { return s.path.transformed(by: s.place).flattened(tolerance: 0.1) }
        stroke.width *= s.place.a
        return s.path.transformed(by: s.place).strokeOutline(stroke, tolerance: 0.1)
    }
    for s in shapes {
        covered += (freetype.coverage(of: outline(s), fillRule: s.rule, width: s.side, height: s.side) ?? [])
            .reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
    }
    let bandRows = 8
    let widest = shapes.map(\.side).max() ?? 1
    let band = PlanarBand(width: widest, rows: bandRows)
    let color = SIMD4<Float>(0.9, 0.8, 0.7, 1)
    if wants(kilnName) {
        let ms = measure(options.frames) { _ in
            for s in shapes {
                guard
                    let painter = PathPainter(
                        path: s.path, fillRule: s.rule, stroke: s.stroke, frameFromLocal: s.place,
                        paint: .solid(color), frameWidth: s.side, frameHeight: s.side)
                else { continue }
                for first in stride(from: 0, to: s.side, by: bandRows) {
                    painter.paintOver(
                        into: band, firstRow: first, rows: min(bandRows, s.side - first), columns: 0..<s.side,
                        opacity: 1)
                }
            }
        }
        rows.append(Row(name: kilnName, threads: 1, msPerFrame: ms, pixels: covered))
    }
    if wants(freetypeName) {
        let ms = measure(options.frames) { _ in
            for s in shapes {
                guard
                    let grid = freetype.coverage(
                        of: outline(s), fillRule: s.rule, width: s.side, height: s.side)
                else { continue }
                grid.withUnsafeBufferPointer { cells in
                    for first in stride(from: 0, to: s.side, by: bandRows) {
                        for row in 0..<min(bandRows, s.side - first) {
                            compositeRow(
                                cells.baseAddress! + (first + row) * s.side, count: s.side, color: color,
                                into: band, row: row)
                        }
                    }
                }
            }
        }
        rows.append(Row(name: freetypeName, threads: 1, msPerFrame: ms, pixels: covered))
    }
}

/// Source-over of `color` × coverage onto one band row, eight pixels at a time.
@inline(__always)
func compositeRow(
    _ coverage: UnsafePointer<UInt8>, count: Int, color: SIMD4<Float>, into band: PlanarBand, row: Int
) {
    let base = row * band.stride
    var x = 0
    while x + 8 <= count {
        var c = SIMD8<Float>()
        for i in 0..<8 { c[i] = Float(coverage[x + i]) }
        c *= 1 / 255
        let keep = 1 - c * color.w
        let i = base + x
        let r = UnsafeMutableRawPointer(band.r + i), g = UnsafeMutableRawPointer(band.g + i)
        let b = UnsafeMutableRawPointer(band.b + i), a = UnsafeMutableRawPointer(band.a + i)
        r.storeBytes(of: r.loadUnaligned(as: SIMD8<Float>.self) * keep + c * color.x, as: SIMD8<Float>.self)
        g.storeBytes(of: g.loadUnaligned(as: SIMD8<Float>.self) * keep + c * color.y, as: SIMD8<Float>.self)
        b.storeBytes(of: b.loadUnaligned(as: SIMD8<Float>.self) * keep + c * color.z, as: SIMD8<Float>.self)
        a.storeBytes(of: a.loadUnaligned(as: SIMD8<Float>.self) * keep + c * color.w, as: SIMD8<Float>.self)
        x += 8
    }
    while x < count {
        let c = Float(coverage[x]) / 255, keep = 1 - c * color.w, i = base + x
        band.r[i] = band.r[i] * keep + c * color.x
        band.g[i] = band.g[i] * keep + c * color.y
        band.b[i] = band.b[i] * keep + c * color.z
        band.a[i] = band.a[i] * keep + c * color.w
        x += 1
    }
}
