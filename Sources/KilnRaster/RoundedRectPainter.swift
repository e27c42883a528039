/// A filled and/or stroked rounded rectangle under an affine map — which also draws plain
/// rectangles (radius 0), circles (a square with radius = half its side) and capsules (radius =
/// half the short side) — anti-aliased by coverage computed from the exact signed distance.
///
/// Coverage of a pixel is 0.5 − d, d the signed distance from the pixel centre to the outline in
/// pixels (clamped to 0…1): exact for edges along the pixel grid and within a few per cent of
/// the true area for any rotation, with no seams between abutting edges. Distances are measured
/// in the shape's own space and converted with the map's area scale, which is exact for
/// rotations and uniform scales (the usual card transforms) and approximate under skew.
public struct RoundedRectPainter: Sendable, Equatable {
    // Frame → local map, local origin at the rectangle's centre.
    let ia: Float, ib: Float, ic: Float, id: Float, itx: Float, ity: Float
    let halfSize: SIMD2<Float>
    let radius: Float
    let pixelsPerUnit: Float
    let fill: SIMD4<Float>
    let gradient: LinearGradient?
    let stroke: SIMD4<Float>
    let strokeHalfWidth: Float
    /// Frame rows and columns whose pixels the shape can touch; nothing outside them is painted.
    public let rows: Range<Int>
    public let columns: Range<Int>

    /// - Parameters:
    ///   - size: the rectangle in its own space, [0, w] × [0, h].
    ///   - frameFromLocal: places that space in the frame (pixels).
    ///   - fill, stroke: premultiplied colours; the stroke is centred on the outline.
    ///   - gradient: when given, fills instead of `fill`; its points are in the shape's own space.
    /// Returns nil when nothing can be visible (empty size, collapsed map, off the frame).
    public init?(
        size: SIMD2<Double>, cornerRadius: Double, frameFromLocal: Affine2D, fill: SIMD4<Float>,
        stroke: SIMD4<Float>, strokeWidth: Double, frameWidth: Int, frameHeight: Int,
        gradient: LinearGradient? = nil
    ) {
        guard size.x > 0, size.y > 0, let inverse = frameFromLocal.inverted else { return nil }
        let centred = Affine2D.translation(-size.x / 2, -size.y / 2).concatenating(inverse)
        (ia, ib, ic, id) = (Float(centred.a), Float(centred.b), Float(centred.c), Float(centred.d))
        (itx, ity) = (Float(centred.tx), Float(centred.ty))
        halfSize = SIMD2(Float(size.x / 2), Float(size.y / 2))
        radius = Float(min(max(cornerRadius, 0), min(size.x, size.y) / 2))
        pixelsPerUnit = Float(abs(frameFromLocal.determinant).squareRoot())
        self.fill = fill
        // The kernel measures positions from the rectangle's centre.
        self.gradient = gradient?.offset(by: SIMD2(Float(-size.x / 2), Float(-size.y / 2)))
        self.stroke = strokeWidth > 0 ? stroke : SIMD4()
        strokeHalfWidth = Float(max(strokeWidth, 0) / 2)
        // Pixels whose centre can be within reach of the shape (its box, grown by the stroke and
        // a pixel of anti-aliasing).
        let grow = max(strokeWidth, 0) / 2
        guard
            let pixels = frameFromLocal.pixelBounds(
                ofSize: size + 2 * grow, offset: SIMD2(-grow, -grow), frameWidth: frameWidth,
                frameHeight: frameHeight)
        else { return nil }
        (rows, columns) = pixels
    }

    /// Pixels farther than this inside the outline (in pixels) are fully covered; farther
    /// outside, not at all. Half a pixel by the coverage rule, plus a margin for rounding.
    static let certainDistance = 0.5 + 1e-3

    var spans: BoxSpans {
        BoxSpans(a: Double(ia), b: Double(ib), c: Double(ic), d: Double(id), tx: Double(itx), ty: Double(ity))
    }

    /// Columns of frame row `y` that the shape (stroke included) can touch.
    func outerSpan(row y: Int, within limit: Range<Int>) -> Range<Int> {
        let grow =
            (Self.certainDistance + Double(strokeHalfWidth) * Double(pixelsPerUnit)) / Double(pixelsPerUnit)
        return spans.columns(
            row: y, halfX: Double(halfSize.x) + grow, halfY: Double(halfSize.y) + grow, limit: limit)
    }

    /// Columns of frame row `y` whose pixels are entirely filled (no edge, corner or stroke).
    func innerSpan(row y: Int, within limit: Range<Int>) -> Range<Int> {
        let shrink =
            Double(radius) + (Self.certainDistance + Double(strokeHalfWidth) * Double(pixelsPerUnit))
            / Double(pixelsPerUnit)
        return spans.columns(
            row: y, halfX: Double(halfSize.x) - shrink, halfY: Double(halfSize.y) - shrink, limit: limit)
    }

    /// Fill coverage of the eight pixels from column `x` on frame row `y` (pixel centres), from
    /// the signed distance to the outline.
    @inline(__always)
    func fillCoverage(x: Int, y: Int) -> SIMD8<Float> { outline.fillCoverage(x: x, y: y) }

    /// The outline alone: what `fillCoverage` reads. Plain values, where the painter holds a
    /// gradient, so a per-chunk loop can hold it without retaining and releasing anything.
    var outline: Outline {
        Outline(
            ia: ia, ib: ib, ic: ic, id: id, itx: itx, ity: ity, halfSize: halfSize, radius: radius,
            pixelsPerUnit: pixelsPerUnit)
    }

    struct Outline {
        let ia: Float, ib: Float, ic: Float, id: Float, itx: Float, ity: Float
        let halfSize: SIMD2<Float>
        let radius: Float
        let pixelsPerUnit: Float

        @inline(__always)
        func fillCoverage(x: Int, y: Int) -> SIMD8<Float> {
            let px = SIMD8<Float>(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5) + Float(x)
            let py = Float(y) + 0.5
            let lx = px * ia + (py * ic + itx)
            let ly = px * ib + (py * id + ity)
            let inner = halfSize - radius
            let qx = magnitude(lx) - inner.x, qy = magnitude(ly) - inner.y
            let ox = positive(qx), oy = positive(qy)
            let distance =
                (squareRoot(ox * ox + oy * oy) + negative(maximum(qx, qy)) - radius) * pixelsPerUnit
            return unit(0.5 - distance)
        }
    }

    /// Multiplies `band` (frame rows `firstRow..<firstRow+rows`) by the shape's fill coverage
    /// within `window`: clipping content to the shape in place. Pixels inside are left as they
    /// are, pixels outside become transparent, and only edge pixels compute a distance.
    public func clip(_ band: PlanarBand, firstRow: Int, rows count: Int, columns window: Range<Int>) {
        let span = band.chunkSpan(window)
        for y in firstRow..<(firstRow + count) {
            let base = (y - firstRow) &* band.stride
            let outer = rows.contains(y) ? outerSpan(row: y, within: span) : span.lowerBound..<span.lowerBound
            let full = rows.contains(y) ? innerSpan(row: y, within: span) : outer
            // Outside the outer span: transparent.
            @inline(__always) func clear(_ range: Range<Int>) {
                guard !range.isEmpty else { return }
                let start = base + range.lowerBound
                (band.r + start).update(repeating: 0, count: range.count)
                (band.g + start).update(repeating: 0, count: range.count)
                (band.b + start).update(repeating: 0, count: range.count)
                (band.a + start).update(repeating: 0, count: range.count)
            }
            clear(span.lowerBound..<outer.lowerBound)
            clear(outer.upperBound..<span.upperBound)
            guard !outer.isEmpty else { continue }
            // Chunks from the outer span's first aligned chunk; whole chunks inside the inner
            // span are left alone.
            var x = outer.lowerBound & ~7
            while x < outer.upperBound {
                if x >= full.lowerBound && x + 8 <= full.upperBound {
                    x &+= 8
                    continue
                }
                var coverage = fillCoverage(x: x, y: y)
                // Lanes before the outer span's start belong to the cleared part (or the window's
                // chunk widening); lanes past its end likewise.
                let skip = LaneMask.first(max(0, min(8, outer.lowerBound &- x)))
                let keep = LaneMask.first(max(0, min(8, outer.upperBound &- x))) & ~skip
                coverage = unsafeBitCast(
                    unsafeBitCast(coverage, to: SIMD8<UInt32>.self) & keep, to: SIMD8<Float>.self)
                let p = base &+ x
                @inline(__always) func scale(_ plane: UnsafeMutablePointer<Float>) {
                    let v = load(plane + p)
                    store(LaneMask.select(keep | skip, v * coverage, v), plane + p)
                }
                scale(band.r)
                scale(band.g)
                scale(band.b)
                scale(band.a)
                x &+= 8
            }
        }
    }

    /// Paints frame rows `firstRow..<firstRow+rows` into `band`, replacing its contents.
    public func paint(
        into band: PlanarBand, firstRow: Int, rows count: Int, columns window: Range<Int>? = nil
    ) {
        let columns = window.map { self.columns.clamped(to: $0) } ?? self.columns
        band.fill(.transparent, rows: count, columns: window)
        let lane = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) + 0.5
        let inner = halfSize - radius
        let ppu = SIMD8<Float>(repeating: pixelsPerUnit)
        let half = SIMD8<Float>(repeating: 0.5)
        let top = max(firstRow, rows.lowerBound), bottom = min(firstRow + count, rows.upperBound)
        guard top < bottom else { return }
        for y in top..<bottom {
            let py = Float(y) + 0.5
            let base = (y - firstRow) &* band.stride
            let outer = outerSpan(row: y, within: columns)
            let full = innerSpan(row: y, within: outer)
            var x = outer.lowerBound
            while x < outer.upperBound {
                let px = lane + Float(x)
                let lx = px * ia + (py * ic + itx)
                let ly = px * ib + (py * id + ity)
                if x >= full.lowerBound && x &+ 8 <= full.upperBound {
                    // Wholly inside: the fill, without distances.
                    let p = base &+ x
                    if let gradient {
                        let c = gradient.colors(x: lx, y: ly)
                        store(c.r, band.r + p)
                        store(c.g, band.g + p)
                        store(c.b, band.b + p)
                        store(c.a, band.a + p)
                    } else {
                        store(SIMD8(repeating: fill.x), band.r + p)
                        store(SIMD8(repeating: fill.y), band.g + p)
                        store(SIMD8(repeating: fill.z), band.b + p)
                        store(SIMD8(repeating: fill.w), band.a + p)
                    }
                    x &+= 8
                    continue
                }
                // Signed distance to a rounded rectangle centred at the origin.
                let qx = magnitude(lx) - inner.x, qy = magnitude(ly) - inner.y
                let ox = positive(qx), oy = positive(qy)
                let outside = squareRoot(ox * ox + oy * oy)
                let insideDistance = negative(maximum(qx, qy))
                let distance = (outside + insideDistance - radius) * ppu
                let fillCoverage = unit(half - distance)
                let strokeCoverage = unit(half - (magnitude(distance) - strokeHalfWidth * pixelsPerUnit))
                let keep = 1 - strokeCoverage * stroke.w
                let inside = LaneMask.first(min(8, outer.upperBound &- x))
                @inline(__always) func put(
                    _ fillChannel: Float, _ strokeChannel: Float, _ plane: UnsafeMutablePointer<Float>
                ) {
                    // The stroke is composited over the fill.
                    let color = (fillCoverage * fillChannel) * keep + strokeCoverage * strokeChannel
                    let p = plane + (base &+ x)
                    store(LaneMask.select(inside, color, load(p)), p)
                }
                @inline(__always) func putVarying(
                    _ fillChannel: SIMD8<Float>, _ strokeChannel: Float, _ plane: UnsafeMutablePointer<Float>
                ) {
                    let color = (fillCoverage * fillChannel) * keep + strokeCoverage * strokeChannel
                    let p = plane + (base &+ x)
                    store(LaneMask.select(inside, color, load(p)), p)
                }
                if let gradient {
                    let c = gradient.colors(x: lx, y: ly)
                    putVarying(c.r, stroke.x, band.r)
                    putVarying(c.g, stroke.y, band.g)
                    putVarying(c.b, stroke.z, band.b)
                    putVarying(c.a, stroke.w, band.a)
                } else {
                    put(fill.x, stroke.x, band.r)
                    put(fill.y, stroke.y, band.g)
                    put(fill.z, stroke.z, band.b)
                    put(fill.w, stroke.w, band.a)
                }
                x &+= 8
            }
        }
    }
}
