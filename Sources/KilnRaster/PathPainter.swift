/// One filled coverage shape (a fill, or a stroke turned into its outline) in one paint,
/// prepared for one frame: built once in `prepare`, painted from many threads.
///
/// Fills are flattened after the transform, in frame pixels, to within `tolerance`; strokes are
/// outlined in the path's own space (so a non-uniform scale stretches them as SVG does) and
/// flattened there with the tolerance divided by the map's largest stretch. Coverage is exact
/// area per pixel (see `CoverageEdges`): where one chain of edges crosses a pixel, the fill
/// rule applied to the summed winding (non-zero as min(|winding|, 1), even-odd folded); where
/// several do, the fill rule applied inside the pixel (`CoverageEdges+Exact`).
public struct PathPainter: Sendable {
    let edges: CoverageEdges
    let fillRule: FillRule
    // The paint split in two, so the per-chunk code never copies the gradient (and its
    // array of stops) out of an enum: nil gradient means the solid colour.
    let solid: SIMD4<Float>
    let gradient: LinearGradient?
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

    /// How far, in frame pixels, a flattened curve may stray from the curve: the chords lie
    /// inside it, and a pixel the curve crosses loses at most this times the curve's length in
    /// it, 1.4 code values for a diagonal pixel (0.1 px lost up to 30 on curves).
    public static let defaultTolerance = 1.0 / 256

    /// A stroke's flattening, at least: its outline is overlapping pieces whose coverage is
    /// summed (see `CoverageEdges.ignoreCrossings`), which errs more than this does, and at
    /// 1/256 px its pieces made the shipped symbols three times slower to paint.
    public static let strokeTolerance = 0.1

    /// nil when nothing of it lands on the frame. `tolerance`: flattening error in frame pixels.
    public init?(
        path: VectorPath, fillRule: FillRule, stroke: StrokeStyle?, frameFromLocal: Affine2D,
        paint: PathPaint, frameWidth: Int, frameHeight: Int, tolerance: Double = defaultTolerance
    ) {
        guard !path.isEmpty, frameFromLocal.isFinite, frameWidth > 0, frameHeight > 0 else { return nil }
        let tolerance = tolerance.isFinite && tolerance > 0 ? tolerance : Self.defaultTolerance
        var edges = CoverageEdges(frameWidth: frameWidth, frameHeight: frameHeight)
        if let stroke {
            guard stroke.width > 0, stroke.width.isFinite else { return nil }
            let stretch = Self.largestStretch(frameFromLocal)
            guard stretch > 0, stretch.isFinite else { return nil }
            let local = max(tolerance, Self.strokeTolerance) / stretch
            let stroker = PathStroker(style: stroke, tolerance: local)
            var sink = FrameStrokeSink(edges: edges, frameFromLocal: frameFromLocal)
            for line in path.polylines(tolerance: local) where !sink.isComplete {
                stroker.add(line, into: &sink)
            }
            edges = sink.finished()
            edges.ignoreCrossings()
            self.fillRule = .nonZero
        } else {
            for line in path.transformed(by: frameFromLocal).polylines(tolerance: tolerance) {
                edges.addPolygon(line.points)
            }
            self.fillRule = fillRule
        }
        guard edges.finish() else { return nil }
        self.edges = edges
        switch paint {
        case .solid(let color): (solid, gradient) = (color, nil)
        case .gradient(let g): (solid, gradient) = (SIMD4(), g)
        }
        rows = edges.rows
        columns = edges.columns
        let inverse = frameFromLocal.inverted ?? .identity
        (ia, ib, ic, id) = (Float(inverse.a), Float(inverse.b), Float(inverse.c), Float(inverse.d))
        (itx, ity) = (Float(inverse.tx), Float(inverse.ty))
    }

    /// Replaces `columns` of the band rows (uncovered pixels become transparent).
    public func paint(into band: PlanarBand, firstRow: Int, rows count: Int, columns window: Range<Int>) {
        render(into: band, firstRow: firstRow, rows: count, window: window, opacity: nil)
    }

    /// Source-over onto what the band holds, the paint faded by `opacity`.
    public func paintOver(
        into band: PlanarBand, firstRow: Int, rows count: Int, columns window: Range<Int>, opacity: Float
    ) {
        guard opacity > 0 else { return }
        render(into: band, firstRow: firstRow, rows: count, window: window, opacity: min(opacity, 1))
    }

    /// Rows whose cells are accumulated at once: the scratch stays in cache (16 rows of a 1080p
    /// frame's width are 125 KB), and every edge is visited once per strip.
    static let stripRows = 16

    /// The first cell of a row is the 8-aligned column at or before `columns.lowerBound`, so a
    /// cell chunk and a band chunk cover the same pixels.
    var cellOrigin: Int { columns.lowerBound & ~7 }

    /// Cells per row of scratch: the columns, the two an edge may reach past them, rounded up
    /// to whole chunks.
    var cellStride: Int { ((columns.upperBound + 2 + 7) & ~7) - cellOrigin }

    /// Adds the edges of rows `firstRow..<firstRow+count` into zeroed `cells` (rows of
    /// `cellStride`, cell 0 being column `cellOrigin`).
    func accumulate(
        into cells: UnsafeMutablePointer<Float>, firstRow: Int, count: Int,
        marks: UnsafeMutablePointer<CoverageEdges.PixelMark>, ambiguous: UnsafeMutablePointer<SIMD2<Int32>>
    ) {
        let shift = columns.lowerBound - cellOrigin
        edges.accumulate(
            into: cells + shift, stride: cellStride, firstRow: firstRow, count: count, marks: marks + shift,
            ambiguous: ambiguous)
    }

    /// A row's ambiguous range before any pixel is found.
    static let noAmbiguity = SIMD2<Int32>(.max, -1)

    /// What rows with ambiguous pixels need: made on the first such row of a `render`.
    final class ExactRows {
        var area: [Float]
        /// Coverage by cell (as the cells), −1 where the summed coverage stands.
        var coverage: [Float]
        var scratch = CoverageEdges.ExactScratch()

        init(stride: Int) {
            area = [Float](repeating: 0, count: stride + 8)
            coverage = [Float](repeating: -1, count: stride + 8)
        }
    }

    /// Computes row `y`'s ambiguous pixels into `exact.coverage`; the frame columns written.
    func exactRow(_ y: Int, ambiguous: SIMD2<Int32>, into exact: ExactRows) -> Range<Int> {
        let shift = columns.lowerBound - cellOrigin
        var written = 0..<0
        exact.area.withUnsafeMutableBufferPointer { area in
            exact.coverage.withUnsafeMutableBufferPointer { coverage in
                written = edges.exactRow(
                    y, flagged: Int(ambiguous.x)...Int(ambiguous.y), fillRule: fillRule,
                    edgeEnd: edges.endOfEdges(above: Float(y + 1)), area: area.baseAddress!,
                    coverage: coverage.baseAddress! + shift, scratch: &exact.scratch)
            }
        }
        return (written.lowerBound + columns.lowerBound)..<(written.upperBound + columns.lowerBound)
    }

    /// Puts back the summed coverage's marker over `columns` after the row is painted.
    func clearExact(_ exact: ExactRows, columns written: Range<Int>) {
        for x in written { exact.coverage[x - cellOrigin] = -1 }
    }

    /// The coverage of eight pixels from the running sum of their cells, carried along the
    /// row. Most chunks of a shape hold no edge: their cells are zero, and the coverage is the
    /// carried winding without a scan. Otherwise the cells are summed one by one, in the
    /// order the scalar reference uses, so both give the same bits. The cells are left zeroed
    /// for the next strip.
    @inline(__always)
    func windings(_ cells: UnsafeMutablePointer<Float>, carry: inout Float) -> SIMD8<Float> {
        let v = load(cells)
        if Self.allZero(v) { return SIMD8(repeating: carry) }
        store(SIMD8(), cells)
        var result = SIMD8<Float>()
        var sum = carry
        for lane in 0..<8 {
            sum += v[lane]
            result[lane] = sum
        }
        carry = sum
        return result
    }

    /// Whether all eight lanes are +0 (a −0 counts as not zero, which only costs a scan).
    /// SIMD `==` compiles to a lane-by-lane loop; four 64-bit words OR-ed together do not.
    @inline(__always)
    static func allZero(_ v: SIMD8<Float>) -> Bool {
        let words = unsafeBitCast(v, to: SIMD4<UInt64>.self)
        return (words.x | words.y | words.z | words.w) == 0
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

    /// Coverage of `columns` on rows `firstRow..<firstRow+count`, row by row, by the kernel
    /// `render` uses (for tests against `scalarCoverage`): the alpha an opaque paint gets.
    func coverage(firstRow: Int, count: Int) -> [Float] {
        let band = PlanarBand(width: columns.upperBound, rows: count)
        render(into: band, firstRow: firstRow, rows: count, window: columns, opacity: nil)
        var result: [Float] = []
        for r in 0..<count { for x in columns { result.append(band.pixel(x: x, row: r).a) } }
        return result
    }

    /// The plain definition: each row's cells summed left to right, one pixel at a time, and
    /// (`exact`) the ambiguous pixels computed again. Without it, the summed coverage that
    /// FreeType's rasterizer also gives.
    func scalarCoverage(firstRow: Int, count: Int, exact useExact: Bool = true) -> [Float] {
        let stride = cellStride
        var cells = [Float](repeating: 0, count: stride * count + 8)
        var marks = [CoverageEdges.PixelMark](repeating: .init(), count: stride * count + 8)
        var ambiguous = [SIMD2<Int32>](repeating: Self.noAmbiguity, count: count)
        cells.withUnsafeMutableBufferPointer { cells in
            marks.withUnsafeMutableBufferPointer { marks in
                ambiguous.withUnsafeMutableBufferPointer {
                    accumulate(
                        into: cells.baseAddress!, firstRow: firstRow, count: count, marks: marks.baseAddress!,
                        ambiguous: $0.baseAddress!)
                }
            }
        }
        let exact = ExactRows(stride: stride)
        var result: [Float] = []
        for r in 0..<count {
            var sum: Float = 0
            let written =
                useExact && ambiguous[r].y >= 0
                ? exactRow(firstRow + r, ambiguous: ambiguous[r], into: exact) : 0..<0
            for x in cellOrigin..<columns.upperBound {
                sum += cells[r * stride + x - cellOrigin]
                guard x >= columns.lowerBound else { continue }
                let e = exact.coverage[x - cellOrigin]
                result.append(e >= 0 ? e : resolveScalar(sum))
            }
            clearExact(exact, columns: written)
        }
        return result
    }

    func render(
        into band: PlanarBand, firstRow: Int, rows count: Int, window: Range<Int>, opacity: Float?
    ) {
        let span = band.chunkSpan(window)
        guard !span.isEmpty else { return }
        let top = max(firstRow, rows.lowerBound), bottom = min(firstRow + count, rows.upperBound)
        @inline(__always) func clear(row: Int) {
            guard opacity == nil else { return }
            let base = (row - firstRow) &* band.stride
            var x = span.lowerBound
            while x < span.upperBound {
                put(band, SIMD8(), SIMD8(), SIMD8(), SIMD8(), x: x, offset: base, window: window)
                x &+= 8
            }
        }
        guard top < bottom else {
            for y in firstRow..<(firstRow + count) { clear(row: y) }
            return
        }
        for y in firstRow..<top { clear(row: y) }
        for y in bottom..<(firstRow + count) { clear(row: y) }
        let stride = cellStride, origin = cellOrigin
        let cellEnd = origin + stride
        let strip = min(Self.stripRows, bottom - top)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: strip * stride + 8) { buffer in
            let cells = buffer.baseAddress!
            cells.initialize(repeating: 0, count: buffer.count)
            withUnsafeTemporaryAllocation(of: CoverageEdges.PixelMark.self, capacity: strip * stride + 8) {
                markBuffer in
                let marks = markBuffer.baseAddress!
                marks.initialize(repeating: .init(), count: markBuffer.count)
                withUnsafeTemporaryAllocation(of: SIMD2<Int32>.self, capacity: strip) { ambiguityBuffer in
                    let ambiguous = ambiguityBuffer.baseAddress!
                    ambiguous.initialize(repeating: Self.noAmbiguity, count: strip)
                    var exact: ExactRows?
                    var stripTop = top
                    while stripTop < bottom {
                        let stripCount = min(strip, bottom - stripTop)
                        accumulate(
                            into: cells, firstRow: stripTop, count: stripCount, marks: marks,
                            ambiguous: ambiguous)
                        for y in stripTop..<(stripTop + stripCount) {
                            let flagged = ambiguous[y - stripTop]
                            let rowCells = cells + (y - stripTop) &* stride
                            let base = (y - firstRow) &* band.stride
                            guard flagged.y >= 0 else {
                                paintRow(
                                    y, cells: rowCells, cellEnd: cellEnd, band: band, base: base, span: span,
                                    window: window, opacity: opacity, exact: nil, exactColumns: 0..<0)
                                continue
                            }
                            ambiguous[y - stripTop] = Self.noAmbiguity
                            let rows = exact ?? ExactRows(stride: stride)
                            exact = rows
                            let written = exactRow(y, ambiguous: flagged, into: rows)
                            rows.coverage.withUnsafeMutableBufferPointer {
                                paintRow(
                                    y, cells: rowCells, cellEnd: cellEnd, band: band, base: base, span: span,
                                    window: window, opacity: opacity, exact: $0.baseAddress!,
                                    exactColumns: written)
                            }
                            clearExact(rows, columns: written)
                        }
                        stripTop += stripCount
                    }
                }
            }
        }
    }

    /// One frame row: every chunk of the window written (paint) or composited onto (over),
    /// the chunks from the row's first cell on summed for the carry even left of the window.
    /// `exact` (by cell, −1 for none) replaces the summed coverage over `exactColumns`.
    @inline(__always)
    func paintRow(
        _ y: Int, cells: UnsafeMutablePointer<Float>, cellEnd: Int, band: PlanarBand, base: Int,
        span: Range<Int>, window: Range<Int>, opacity: Float?, exact: UnsafeMutablePointer<Float>?,
        exactColumns: Range<Int>
    ) {
        let origin = cellOrigin
        let py = Float(y) + 0.5
        let flat = (
            r: SIMD8(repeating: solid.x), g: SIMD8(repeating: solid.y), b: SIMD8(repeating: solid.z),
            a: SIMD8(repeating: solid.w)
        )
        let hasGradient = gradient != nil
        var carry: Float = 0
        // Left of the cells: nothing covered.
        var x = span.lowerBound
        while x < min(origin, span.upperBound) {
            if opacity == nil {
                put(band, SIMD8(), SIMD8(), SIMD8(), SIMD8(), x: x, offset: base, window: window)
            }
            x &+= 8
        }
        var cx = origin
        while cx < span.upperBound {
            var c = SIMD8<Float>()
            if cx < cellEnd {
                c = resolve(windings(cells + (cx &- origin), carry: &carry))
                if let exact, cx &+ 8 > exactColumns.lowerBound, cx < exactColumns.upperBound {
                    let e = load(exact + (cx &- origin))
                    c = c.replacing(with: e, where: e .>= 0)
                }
                if cx < columns.lowerBound || cx &+ 8 > columns.upperBound {
                    // Float residue past the last edge, and the padding before the first.
                    let inside =
                        LaneMask.first(max(0, min(8, columns.upperBound &- cx)))
                        & ~LaneMask.first(max(0, min(8, columns.lowerBound &- cx)))
                    c = LaneMask.select(inside, c, SIMD8())
                }
            }
            if cx < span.lowerBound {
                cx &+= 8
                continue
            }
            if let opacity {
                if Self.allZero(c) {
                    cx &+= 8
                    continue
                }
                let color = hasGradient ? colors(x: cx, py: py) : flat
                let k = c * opacity
                let keep = 1 - k * color.a
                let p = base &+ cx
                if cx < window.lowerBound || cx &+ 8 > window.upperBound {
                    let inside =
                        LaneMask.first(max(0, min(8, window.upperBound &- cx)))
                        & ~LaneMask.first(max(0, min(8, window.lowerBound &- cx)))
                    @inline(__always) func over(_ plane: UnsafeMutablePointer<Float>, _ channel: SIMD8<Float>)
                    {
                        let d = load(plane + p)
                        store(LaneMask.select(inside, channel * k + d * keep, d), plane + p)
                    }
                    over(band.r, color.r)
                    over(band.g, color.g)
                    over(band.b, color.b)
                    over(band.a, color.a)
                } else {
                    store(color.r * k + load(band.r + p) * keep, band.r + p)
                    store(color.g * k + load(band.g + p) * keep, band.g + p)
                    store(color.b * k + load(band.b + p) * keep, band.b + p)
                    store(color.a * k + load(band.a + p) * keep, band.a + p)
                }
            } else {
                let color = hasGradient ? colors(x: cx, py: py) : flat
                put(
                    band, color.r * c, color.g * c, color.b * c, color.a * c, x: cx, offset: base,
                    window: window)
            }
            cx &+= 8
        }
        // Cells right of a narrow window were not read: zero them for the next strip.
        if cx < cellEnd { (cells + (cx &- origin)).update(repeating: 0, count: cellEnd &- cx) }
    }

    /// Stores eight pixels from column `x`, leaving the lanes outside `window` as they were, so
    /// painting neighbouring windows one after the other equals painting their union.
    @inline(__always)
    func put(
        _ band: PlanarBand, _ r: SIMD8<Float>, _ g: SIMD8<Float>, _ b: SIMD8<Float>, _ a: SIMD8<Float>,
        x: Int,
        offset: Int, window: Range<Int>
    ) {
        let p = offset &+ x
        guard x < window.lowerBound || x &+ 8 > window.upperBound else {
            store(r, band.r + p)
            store(g, band.g + p)
            store(b, band.b + p)
            store(a, band.a + p)
            return
        }
        let inside =
            LaneMask.first(max(0, min(8, window.upperBound &- x)))
            & ~LaneMask.first(max(0, min(8, window.lowerBound &- x)))
        store(LaneMask.select(inside, r, load(band.r + p)), band.r + p)
        store(LaneMask.select(inside, g, load(band.g + p)), band.g + p)
        store(LaneMask.select(inside, b, load(band.b + p)), band.b + p)
        store(LaneMask.select(inside, a, load(band.a + p)), band.a + p)
    }

    /// The gradient's colours at the eight pixel centres from column `x` on a row at `py`.
    @inline(never)
    func colors(x: Int, py: Float) -> (r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>) {
        guard let gradient else { return (SIMD8(), SIMD8(), SIMD8(), SIMD8()) }
        let px = SIMD8<Float>(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5) + Float(x)
        let lx = px * ia + (py * ic + itx)
        let ly = px * ib + (py * id + ity)
        return gradient.colors(x: lx, y: ly)
    }
}

/// A stroke's pieces as a painter keeps them: in frame pixels, turned the same way (they are
/// united by the non-zero rule, whatever the map's handedness), and only those that reach the
/// frame. A convex piece wholly outside the frame adds no winding inside it and is dropped; one
/// that holds the whole frame makes the stroke a fill of the frame, and nothing after it
/// matters. So the edges a stroke keeps are bounded by what the frame shows, however wide or
/// long the stroke is.
struct FrameStrokeSink: StrokeSink {
    private var edges: CoverageEdges
    let frameFromLocal: Affine2D
    /// The map's largest and smallest stretch: bounds of a circle's radius in the frame.
    let largest: Double, smallest: Double
    let width: Double, height: Double
    private(set) var isComplete = false

    init(edges: CoverageEdges, frameFromLocal: Affine2D) {
        self.edges = edges
        self.frameFromLocal = frameFromLocal
        largest = PathPainter.largestStretch(frameFromLocal)
        let determinant = abs(frameFromLocal.a * frameFromLocal.d - frameFromLocal.b * frameFromLocal.c)
        smallest = largest > 0 ? determinant / largest : 0
        width = Double(edges.frameWidth)
        height = Double(edges.frameHeight)
    }

    var corners: [SIMD2<Double>] { [SIMD2(0, 0), SIMD2(width, 0), SIMD2(width, height), SIMD2(0, height)] }

    mutating func take(_ polygon: [SIMD2<Double>]) {
        guard !isComplete, polygon.count > 2 else { return }
        var points = polygon.map { frameFromLocal.apply($0) }
        var low = points[0], high = points[0], area = 0.0
        var previous = points[points.count - 1]
        for p in points {
            low = pointwiseMin(low, p)
            high = pointwiseMax(high, p)
            area += previous.x * p.y - p.x * previous.y
            previous = p
        }
        guard high.x > 0, high.y > 0, low.x < width, low.y < height else { return }
        if area < 0 { points.reverse() }
        if low.x <= 0, low.y <= 0, high.x >= width, high.y >= height, Self.contains(points, corners) {
            coverFrame()
            return
        }
        edges.addPolygon(points)
    }

    mutating func wantsCircle(at p: SIMD2<Double>, radius: Double) -> Bool {
        guard !isComplete else { return false }
        let centre = frameFromLocal.apply(p)
        let reach = radius * largest
        guard centre.x + reach > 0, centre.y + reach > 0, centre.x - reach < width, centre.y - reach < height
        else { return false }
        // The polygon's sides lie within 1 % of its vertex radius for the 16 or more vertices it
        // has: a frame whose corners are that far inside is covered.
        let inner = radius * smallest * 0.98
        if corners.allSatisfy({ distance($0, centre) < inner }) {
            coverFrame()
            return false
        }
        return true
    }

    private mutating func coverFrame() {
        isComplete = true
        edges = CoverageEdges(frameWidth: edges.frameWidth, frameHeight: edges.frameHeight)
        edges.addPolygon(corners)
    }

    func finished() -> CoverageEdges { edges }

    private func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let d = a - b
        return (d * d).sum().squareRoot()
    }

    /// Whether the convex polygon `points` (turning positively) holds every point of `inside`.
    static func contains(_ points: [SIMD2<Double>], _ inside: [SIMD2<Double>]) -> Bool {
        var previous = points[points.count - 1]
        for p in points {
            let edge = p - previous
            for q in inside where edge.x * (q.y - previous.y) - edge.y * (q.x - previous.x) < 0 {
                return false
            }
            previous = p
        }
        return true
    }
}
