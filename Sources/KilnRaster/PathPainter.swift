/// One filled coverage shape (a fill, or a stroke turned into its outline) in one paint,
/// prepared for one frame: built once in `prepare`, painted from many threads.
///
/// Fills are flattened after the transform, in frame pixels, to within `tolerance`; strokes are
/// outlined in the path's own space (so a non-uniform scale stretches them as SVG does) and
/// flattened there with the tolerance divided by the map's largest stretch. Coverage is exact
/// area per pixel (see `CoverageEdges`), non-zero as min(|winding|, 1), even-odd folded.
public struct PathPainter: Sendable {
    let edges: CoverageEdges
    let fillRule: FillRule
    let paint: PathPaint
    // Frame → local map for gradients.
    let ia: Float, ib: Float, ic: Float, id: Float, itx: Float, ity: Float
    public let rows: Range<Int>
    public let columns: Range<Int>

    /// The largest factor by which `map` stretches any direction (its larger singular value).
    static func largestStretch(_ map: Affine2D) -> Double {
        let (a, b, c, d) = (map.a, map.b, map.c, map.d)
        let mean = (a * a + b * b + c * c + d * d) / 2
        let half = (a * a + b * b - c * c - d * d) / 2, mixed = a * c + b * d
        return (mean + (half * half + mixed * mixed).squareRoot()).squareRoot()
    }

    /// nil when nothing of it lands on the frame. `tolerance`: flattening error in frame pixels.
    public init?(
        path: VectorPath, fillRule: FillRule, stroke: StrokeStyle?, frameFromLocal: Affine2D,
        paint: PathPaint, frameWidth: Int, frameHeight: Int, tolerance: Double = 0.1
    ) {
        guard !path.isEmpty, frameFromLocal.isFinite, frameWidth > 0, frameHeight > 0 else { return nil }
        let tolerance = tolerance.isFinite && tolerance > 0 ? tolerance : 0.1
        var edges = CoverageEdges(frameWidth: frameWidth, frameHeight: frameHeight)
        if let stroke {
            guard stroke.width > 0, stroke.width.isFinite else { return nil }
            let stretch = Self.largestStretch(frameFromLocal)
            guard stretch > 0, stretch.isFinite else { return nil }
            let local = tolerance / stretch
            var stroker = PathStroker(style: stroke, tolerance: local)
            for line in path.polylines(tolerance: local) { stroker.add(line) }
            // The pieces are united by the non-zero rule, so they must all turn the same way
            // in the frame, whatever the map's handedness.
            for polygon in stroker.polygons {
                var points = polygon.map { frameFromLocal.apply($0) }
                var area = 0.0
                var previous = points[points.count - 1]
                for p in points {
                    area += previous.x * p.y - p.x * previous.y
                    previous = p
                }
                if area < 0 { points.reverse() }
                edges.addPolygon(points)
            }
            self.fillRule = .nonZero
        } else {
            for line in path.transformed(by: frameFromLocal).polylines(tolerance: tolerance) {
                edges.addPolygon(line.points)
            }
            self.fillRule = fillRule
        }
        guard edges.finish() else { return nil }
        self.edges = edges
        self.paint = paint
        rows = edges.rows
        columns = edges.columns
        let inverse = frameFromLocal.inverted ?? .identity
        (ia, ib, ic, id) = (Float(inverse.a), Float(inverse.b), Float(inverse.c), Float(inverse.d))
        (itx, ity) = (Float(inverse.tx), Float(inverse.ty))
    }

    /// Replaces `columns` of the band rows (uncovered pixels become transparent).
    public func paint(into band: PlanarBand, firstRow: Int, rows count: Int, columns window: Range<Int>) {
        band.fill(.transparent, rows: count, columns: window)
        render(into: band, firstRow: firstRow, rows: count, window: window, opacity: nil)
    }

    /// Source-over onto what the band holds, the paint faded by `opacity`.
    public func paintOver(
        into band: PlanarBand, firstRow: Int, rows count: Int, columns window: Range<Int>, opacity: Float
    ) {
        guard opacity > 0 else { return }
        render(into: band, firstRow: firstRow, rows: count, window: window, opacity: min(opacity, 1))
    }

    /// Cells before a row's first column, so 8-pixel chunks that start left of it read zeros.
    static let leadingCells = 8

    /// Cells per row of scratch: the columns, the two an edge may reach past them, and a chunk
    /// of padding on each side.
    var cellStride: Int { (columns.count + 2 + 2 * Self.leadingCells + 7) & ~7 }

    /// Fills `cells` (zeroed, `count` rows of `cellStride`) with the coverage of frame rows
    /// `firstRow..<firstRow+count`: cell `leadingCells + i` is column `columns.lowerBound + i`.
    func coverage(into cells: UnsafeMutablePointer<Float>, firstRow: Int, count: Int) {
        let stride = cellStride
        edges.accumulate(into: cells + Self.leadingCells, stride: stride, firstRow: firstRow, count: count)
        let n = columns.count + 2
        for r in 0..<count {
            let row = cells + Self.leadingCells + r &* stride
            // The running sum is the winding number weighted by area; it is serial, and kept
            // scalar so every row adds in the same order.
            var sum: Float = 0
            for i in 0..<n {
                sum += row[i]
                row[i] = sum
            }
        }
    }

    /// Coverage 0…1 from the accumulated winding, by the fill rule.
    @inline(__always)
    func resolve(_ winding: SIMD8<Float>) -> SIMD8<Float> {
        let m = magnitude(winding)
        switch fillRule {
        case .nonZero: return m.replacing(with: 1, where: m .> 1)
        case .evenOdd:
            // Fold onto 0…2, then mirror 1…2 back: a triangle wave of period 2.
            let t = m - 2 * (m * 0.5).rounded(.down)
            return t.replacing(with: 2 - t, where: t .> 1)
        }
    }

    /// Scalar `resolve`, the reference the tests hold the SIMD one to.
    func resolveScalar(_ winding: Float) -> Float {
        let m = abs(winding)
        switch fillRule {
        case .nonZero: return min(m, 1)
        case .evenOdd:
            let t = m - 2 * (m * 0.5).rounded(.down)
            return t > 1 ? 2 - t : t
        }
    }

    func render(into band: PlanarBand, firstRow: Int, rows count: Int, window: Range<Int>, opacity: Float?) {
        let top = max(firstRow, rows.lowerBound), bottom = min(firstRow + count, rows.upperBound)
        let span = columns.clamped(to: window)
        guard top < bottom, !span.isEmpty else { return }
        let stride = cellStride
        let rowCount = bottom - top
        let left = columns.lowerBound
        withUnsafeTemporaryAllocation(of: Float.self, capacity: rowCount * stride + 8) { buffer in
            let cells = buffer.baseAddress!
            cells.initialize(repeating: 0, count: buffer.count)
            coverage(into: cells, firstRow: top, count: rowCount)
            for y in top..<bottom {
                let row = cells + Self.leadingCells + (y - top) &* stride
                let base = (y - firstRow) &* band.stride
                var x = span.lowerBound & ~7
                let py = Float(y) + 0.5
                while x < span.upperBound {
                    let inside =
                        LaneMask.first(min(8, span.upperBound &- x))
                        & ~LaneMask.first(max(0, min(8, span.lowerBound &- x)))
                    var c = resolve(load(row + (x &- left)))
                    c = unsafeBitCast(
                        unsafeBitCast(c, to: SIMD8<UInt32>.self) & inside, to: SIMD8<Float>.self)
                    if let opacity {
                        if c == SIMD8() {
                            x &+= 8
                            continue
                        }
                        c *= opacity
                    }
                    let color = colors(x: x, py: py)
                    let p = base &+ x
                    if opacity != nil {
                        let keep = 1 - c * color.a
                        store(color.r * c + load(band.r + p) * keep, band.r + p)
                        store(color.g * c + load(band.g + p) * keep, band.g + p)
                        store(color.b * c + load(band.b + p) * keep, band.b + p)
                        store(color.a * c + load(band.a + p) * keep, band.a + p)
                    } else {
                        store(LaneMask.select(inside, color.r * c, load(band.r + p)), band.r + p)
                        store(LaneMask.select(inside, color.g * c, load(band.g + p)), band.g + p)
                        store(LaneMask.select(inside, color.b * c, load(band.b + p)), band.b + p)
                        store(LaneMask.select(inside, color.a * c, load(band.a + p)), band.a + p)
                    }
                    x &+= 8
                }
            }
        }
    }

    /// The paint's colour at the eight pixel centres from column `x` on a row at `py`.
    @inline(__always)
    func colors(x: Int, py: Float) -> (r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>) {
        switch paint {
        case .solid(let c):
            return (
                SIMD8(repeating: c.x), SIMD8(repeating: c.y), SIMD8(repeating: c.z), SIMD8(repeating: c.w)
            )
        case .gradient(let gradient):
            let px = SIMD8<Float>(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5) + Float(x)
            let lx = px * ia + (py * ic + itx)
            let ly = px * ib + (py * id + ity)
            return gradient.colors(x: lx, y: ly)
        }
    }
}
