/// A list of triangles with a premultiplied colour per vertex, colours interpolated linearly
/// across each triangle (Gouraud shading), painted in list order with source-over.
///
/// Mesh gradients tessellate into this; so can any later effect that needs smooth shading.
/// Coverage is point-sampled at pixel centres with half-open spans computed from each edge in a
/// canonical orientation, so triangles sharing an edge neither overlap nor leave gaps. Edges
/// where colour is discontinuous (the outline of the mesh, the crease of a fold) are declared as
/// silhouettes; pixels along them are resolved again from 16 subsamples, so those edges are
/// anti-aliased (see GouraudMesh+Silhouettes.swift).
public struct GouraudMesh: Sendable {
    public struct Vertex: Sendable, Hashable {
        public var x: Float
        public var y: Float
        public var color: SIMD4<Float>
        public init(x: Float, y: Float, color: SIMD4<Float>) {
            self.x = x
            self.y = y
            self.color = color
        }
    }

    /// Per-triangle constants: the colour plane c(x, y) = base + dx·x + dy·y and the y extent.
    struct Plane: Sendable {
        var base: SIMD4<Float>
        var dx: SIMD4<Float>
        var dy: SIMD4<Float>
        var opaque: Bool

        /// The colour at x = 0.5 on the row whose centre is at `y`; a span steps it by dx per
        /// pixel from the absolute position (not accumulated), so any split of the work gives
        /// the same floats.
        @inline(__always)
        func rowStart(y: Float) -> SIMD4<Float> { base + dx * 0.5 + dy * y }

        /// r, g, b, a of the eight pixels from column `x` of a row starting at `start`.
        @inline(__always)
        func chunk(from start: SIMD4<Float>, x: Int) -> (
            SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>
        ) {
            let xs = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) + Float(x)
            return (
                SIMD8(repeating: start.x) + xs * dx.x, SIMD8(repeating: start.y) + xs * dx.y,
                SIMD8(repeating: start.z) + xs * dx.z, SIMD8(repeating: start.w) + xs * dx.w
            )
        }
    }

    var planes: [Plane] = []
    var edges: [Outline] = []
    var yRange: [(min: Float, max: Float)] = []
    var xRange: [(min: Float, max: Float)] = []
    /// Triangles whose y extent touches each band, in paint order (CSR layout).
    var binStarts: [Int32] = []
    var binItems: [Int32] = []
    var binHeight = 0
    /// Silhouette segments and, per band, those within a pixel of it (CSR layout).
    var silhouettes: [Segment] = []
    var silhouetteBinStarts: [Int32] = []
    var silhouetteBinItems: [Int32] = []
    /// What lies beneath the mesh where no triangle covers a subsample (premultiplied).
    public var underlay = SIMD4<Float>()

    public init() {}

    public var triangleCount: Int { planes.count }

    /// Room for `count` more triangles, so a tessellation that knows its size appends without
    /// growing (and copying) its arrays along the way.
    public mutating func reserveCapacity(triangles count: Int) {
        let total = planes.count + max(count, 0)
        planes.reserveCapacity(total)
        edges.reserveCapacity(total)
        yRange.reserveCapacity(total)
        xRange.reserveCapacity(total)
    }

    public mutating func removeAll() {
        planes.removeAll(keepingCapacity: true)
        edges.removeAll(keepingCapacity: true)
        yRange.removeAll(keepingCapacity: true)
        xRange.removeAll(keepingCapacity: true)
        silhouettes.removeAll(keepingCapacity: true)
        everyTriangleOpaque = true
    }

    /// How much the colour's slope changes from one gradient to another: the largest channel's
    /// change, per pixel, in any direction.
    public static func slopeJump(
        _ g: (x: SIMD4<Float>, y: SIMD4<Float>), _ h: (x: SIMD4<Float>, y: SIMD4<Float>)
    ) -> Float {
        let dx = g.x - h.x, dy = g.y - h.y
        return (dx * dx + dy * dy).max().squareRoot()
    }

    /// Appends a triangle; degenerate ones (no area) are dropped since they cover no pixel centre.
    /// Returns the colour's gradient across it (per channel, per pixel along x and y), nil for
    /// one dropped.
    @discardableResult
    public mutating func addTriangle(_ v0: Vertex, _ v1: Vertex, _ v2: Vertex) -> (
        x: SIMD4<Float>, y: SIMD4<Float>
    )? {
        // Solve the colour plane in double precision: near-degenerate triangles are common at
        // folded mesh corners, and the plane must not blow up there.
        let x0 = Double(v0.x), y0 = Double(v0.y)
        let e1x = Double(v1.x) - x0, e1y = Double(v1.y) - y0
        let e2x = Double(v2.x) - x0, e2y = Double(v2.y) - y0
        let det = e1x * e2y - e2x * e1y
        guard abs(det) > 1e-9 else { return nil }
        var base = SIMD4<Float>(), dx = SIMD4<Float>(), dy = SIMD4<Float>()
        for c in 0..<4 {
            let c0 = Double(v0.color[c])
            let d1 = Double(v1.color[c]) - c0
            let d2 = Double(v2.color[c]) - c0
            let gx = (d1 * e2y - d2 * e1y) / det
            let gy = (d2 * e1x - d1 * e2x) / det
            dx[c] = Float(gx)
            dy[c] = Float(gy)
            base[c] = Float(c0 - gx * x0 - gy * y0)
        }
        let opaque = v0.color.w >= 1 && v1.color.w >= 1 && v2.color.w >= 1
        edges.append(Outline(v0, v1, v2))
        planes.append(Plane(base: base, dx: dx, dy: dy, opaque: opaque))
        everyTriangleOpaque = everyTriangleOpaque && opaque
        yRange.append((min(v0.y, v1.y, v2.y), max(v0.y, v1.y, v2.y)))
        xRange.append((min(v0.x, v1.x, v2.x), max(v0.x, v1.x, v2.x)))
        return (dx, dy)
    }

    /// Sorts triangles into bands of `bandHeight` rows so each band visits only its own triangles.
    public mutating func bin(bandHeight: Int, frameHeight: Int) {
        binHeight = bandHeight
        let bands = (frameHeight + bandHeight - 1) / bandHeight
        var counts = [Int32](repeating: 0, count: bands + 1)
        func bandSpan(_ t: Int) -> ClosedRange<Int>? {
            let (lo, hi) = yRange[t]
            // Every pixel row the triangle touches, not only those whose centre it covers:
            // silhouette subsamples need the triangles that cover any part of a row.
            let first = max(0, SaturatingConversion.int(lo, .down, nan: frameHeight))
            let last = min(frameHeight - 1, SaturatingConversion.int(hi, .up, nan: -1))
            guard first <= last else { return nil }
            return (first / bandHeight)...(last / bandHeight)
        }
        for t in 0..<planes.count {
            guard let span = bandSpan(t) else { continue }
            for band in span { counts[band + 1] += 1 }
        }
        for i in 0..<bands { counts[i + 1] += counts[i] }
        binStarts = counts
        binItems = [Int32](repeating: 0, count: Int(counts[bands]))
        var cursor = counts
        for t in 0..<planes.count {
            guard let span = bandSpan(t) else { continue }
            for band in span {
                binItems[Int(cursor[band])] = Int32(t)
                cursor[band] += 1
            }
        }
        binSilhouettes(bands: bands, frameHeight: frameHeight)
    }

    /// Paints the triangles that touch band rows `firstRow..<firstRow+rows` into `band` (row 0 of
    /// the band is frame row `firstRow`). Call `bin` first with the band height used here.
    public func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>? = nil) {
        let columns = columns ?? 0..<band.width
        paintTriangles(into: band, firstRow: firstRow, rows: rows, columns: columns, over: nil)
        resolveSilhouettes(into: band, firstRow: firstRow, rows: rows, columns: columns)
    }

    /// The colours `paint` gives the pixels x = 0, `step`, 2·`step`, … of frame row `y` (below
    /// `width`) and the row's last pixel, `width − 1`: pixel x's to element x / `step` of each
    /// plane, the last pixel's to element (`width` − 1) / `step` + 1. Only the triangles'
    /// spans are walked, not their pixels, with the painter's arithmetic, so the values are the
    /// painted ones bit for bit where one opaque triangle covers the pixel (a mesh that
    /// `tilesOpaquely`); elements of pixels no triangle covers are left alone.
    func sample(
        row y: Int, width: Int, step: Int,
        into color: (
            UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
            UnsafeMutablePointer<Float>
        )
    ) {
        precondition(binHeight > 0, "bin(bandHeight:frameHeight:) must run before sampling")
        let bandIndex = y / binHeight
        guard y >= 0, bandIndex + 1 < binStarts.count else { return }
        let yc = Float(y) + 0.5
        let last = width - 1, lastIndex = (width - 1) / step + 1
        @inline(__always) func put(_ plane: Plane, _ start: SIMD4<Float>, x: Int, at index: Int) {
            let value = start + SIMD4(repeating: Float(x)) * plane.dx
            (color.0[index], color.1[index], color.2[index], color.3[index]) = (
                value.x, value.y, value.z, value.w
            )
        }
        for k in Int(binStarts[bandIndex])..<Int(binStarts[bandIndex + 1]) {
            let t = Int(binItems[k])
            guard let span = edges[t].span(at: yc, within: 0...width) else { continue }
            let (first, end) = (span.lowerBound, span.upperBound)
            let plane = planes[t]
            let start = plane.rowStart(y: yc)
            var x = (first + step - 1) / step * step
            while x < end {
                put(plane, start, x: x, at: x / step)
                x += step
            }
            if first <= last && last < end { put(plane, start, x: last, at: lastIndex) }
        }
    }

    /// Whether every triangle is opaque and no silhouette is declared: for a mesh whose outline
    /// lies on the frame's edge (a mesh gradient's, unfolded), every pixel centre of the frame is
    /// then covered by exactly one triangle, so compositing the triangles one by one is
    /// compositing the painted mesh (`paintOver`).
    public var tilesOpaquely: Bool { silhouettes.isEmpty && everyTriangleOpaque }

    /// Kept as triangles are added: `tilesOpaquely` is asked once per band.
    private var everyTriangleOpaque = true

    /// Composites the triangles, faded by `opacity`, source-over onto what `band` holds: the
    /// same bytes as painting the mesh into a scratch band and compositing that
    /// (`Compositing.sourceOver`), in one pass, for a mesh that `tilesOpaquely` and covers
    /// `columns`.
    public func paintOver(
        into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, opacity: Float
    ) {
        precondition(tilesOpaquely, "only a mesh that tiles opaquely composites triangle by triangle")
        paintTriangles(into: band, firstRow: firstRow, rows: rows, columns: columns, over: opacity)
    }

    private func paintTriangles(
        into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, over opacity: Float?
    ) {
        precondition(binHeight > 0, "bin(bandHeight:frameHeight:) must run before paint")
        let bandIndex = firstRow / binHeight
        guard bandIndex + 1 < binStarts.count else { return }
        let lo = Int(binStarts[bandIndex]), hi = Int(binStarts[bandIndex + 1])
        edges.withUnsafeBufferPointer { edges in
            planes.withUnsafeBufferPointer { planes in
                binItems.withUnsafeBufferPointer { items in
                    for k in lo..<hi {
                        let t = Int(items[k])
                        guard xRange[t].max >= Float(columns.lowerBound),
                            xRange[t].min <= Float(columns.upperBound)
                        else { continue }
                        paintTriangle(
                            edges[t], planes[t], band: band, firstRow: firstRow, rows: rows, columns: columns,
                            over: opacity)
                    }
                }
            }
        }
    }

    @inline(__always)
    private func paintTriangle(
        _ outline: Outline, _ plane: Plane, band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>,
        over opacity: Float?
    ) {
        // Rows whose centre lies in [top, bottom): the long edge bounds one side of every span,
        // the upper or the lower short edge the other.
        let startRow = SaturatingConversion.int(outline.long.y0 - 0.5 - Float(firstRow), .up, in: 0...rows)
        let endRow = SaturatingConversion.int(outline.long.y1 - 0.5 - Float(firstRow), .up, in: 0...rows)
        var row = startRow
        while row < endRow {
            let yc = Float(firstRow &+ row) + 0.5
            // Limiting to `columns` only drops pixels; values come from absolute positions.
            if let span = outline.span(at: yc, within: columns.lowerBound...columns.upperBound) {
                if let opacity {
                    compositeSpan(
                        plane: plane, band: band, row: row, y: yc, from: span.lowerBound, to: span.upperBound,
                        opacity: opacity)
                } else {
                    fillSpan(
                        plane: plane, band: band, row: row, y: yc, from: span.lowerBound, to: span.upperBound)
                }
            }
            row &+= 1
        }
    }

    /// `fillSpan`'s colours composited onto the band, with `Compositing.sourceOver`'s arithmetic.
    @inline(__always)
    private func compositeSpan(
        plane: Plane, band: PlanarBand, row: Int, y: Float, from first: Int, to end: Int, opacity: Float
    ) {
        let rowBase = row &* band.stride
        let start = plane.rowStart(y: y)
        let o = SIMD8<Float>(repeating: opacity)
        let planesOut = (band.r + rowBase, band.g + rowBase, band.b + rowBase, band.a + rowBase)
        var x = first
        while x < end {
            let (cr, cg, cb, a) = plane.chunk(from: start, x: x)
            let sa = a * o
            let keep = 1 - sa
            let inside = LaneMask.first(min(8, end &- x))
            @inline(__always) func over(_ value: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
                let old = load(p)
                store(LaneMask.select(inside, value + old * keep, old), p)
            }
            over(cr * o, planesOut.0 + x)
            over(cg * o, planesOut.1 + x)
            over(cb * o, planesOut.2 + x)
            over(sa, planesOut.3 + x)
            x &+= 8
        }
    }

    @inline(__always)
    private func fillSpan(plane: Plane, band: PlanarBand, row: Int, y: Float, from first: Int, to end: Int) {
        let rowBase = row &* band.stride
        let start = plane.rowStart(y: y)
        let planesOut = (band.r + rowBase, band.g + rowBase, band.b + rowBase, band.a + rowBase)
        var x = first
        while x < end {
            // Pixel centres inside the triangle get convex combinations of valid premultiplied
            // vertex colours, so no clamp is needed (float error is far below a code value and
            // the quantizer rounds tiny excursions correctly).
            let (cr, cg, cb, a) = plane.chunk(from: start, x: x)
            // The last chunk of a span writes all eight lanes but keeps the old value beyond the
            // span (bands are padded, so lanes past the row end stay inside the allocation).
            let remaining = end &- x
            let inside = LaneMask.first(min(8, remaining))
            @inline(__always) func put(
                _ value: SIMD8<Float>, _ alpha: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>
            ) {
                if plane.opaque && remaining >= 8 {
                    store(value, p)  // the common case: nothing underneath to read
                    return
                }
                let old = load(p)
                let new = plane.opaque ? value : value + old * (1 - alpha)
                store(LaneMask.select(inside, new, old), p)
            }
            put(cr, a, planesOut.0 + x)
            put(cg, a, planesOut.1 + x)
            put(cb, a, planesOut.2 + x)
            put(a, a, planesOut.3 + x)
            x &+= 8
        }
    }
}

/// A triangle's edges, from its vertices sorted top to bottom: the long edge spans the whole
/// height; `upper` and `lower` meet at the middle vertex. Every row inside the triangle crosses
/// the long edge and exactly one short edge (half-open in y).
struct Outline: Sendable {
    let long: Edge, upper: Edge, lower: Edge

    init(_ a: GouraudMesh.Vertex, _ b: GouraudMesh.Vertex, _ c: GouraudMesh.Vertex) {
        func above(_ p: GouraudMesh.Vertex, _ q: GouraudMesh.Vertex) -> Bool {
            p.y < q.y || (p.y == q.y && p.x < q.x)
        }
        var (top, mid, bottom) = (a, b, c)
        if above(mid, top) { swap(&mid, &top) }
        if above(bottom, mid) { swap(&bottom, &mid) }
        if above(mid, top) { swap(&mid, &top) }
        long = Edge(top, bottom)
        upper = Edge(top, mid)
        lower = Edge(mid, bottom)
    }

    /// The pixels of the row whose centre is at `yc` that the triangle covers, within `columns`
    /// (pixel i is covered when its centre i + 0.5 lies in [xl, xr)); nil when none is. The
    /// painter and `GouraudMesh.sample` both take their spans from here, so they agree.
    @inline(__always)
    func span(at yc: Float, within columns: ClosedRange<Int>) -> Range<Int>? {
        guard long.crosses(yc) else { return nil }
        let short = yc < lower.y0 ? upper : lower
        let a = long.x(at: yc), b = short.x(at: yc)
        let first = SaturatingConversion.int(min(a, b) - 0.5, .up, in: columns)
        let end = SaturatingConversion.int(max(a, b) - 0.5, .up, in: columns)
        return first < end ? first..<end : nil
    }
}

/// One triangle edge in canonical orientation (top endpoint first), so the two triangles sharing
/// it compute bit-identical crossings.
struct Edge: Sendable {
    let x0: Float, y0: Float, x1: Float, y1: Float
    let slope: Float

    @inline(__always)
    init(_ a: GouraudMesh.Vertex, _ b: GouraudMesh.Vertex) {
        if a.y < b.y || (a.y == b.y && a.x < b.x) {
            (x0, y0, x1, y1) = (a.x, a.y, b.x, b.y)
        } else {
            (x0, y0, x1, y1) = (b.x, b.y, a.x, a.y)
        }
        slope = y1 > y0 ? (x1 - x0) / (y1 - y0) : 0
    }

    /// Half-open in y, so a vertex on the scanline is counted by exactly one of its two edges.
    @inline(__always)
    func crosses(_ y: Float) -> Bool { y0 <= y && y < y1 }

    @inline(__always)
    func x(at y: Float) -> Float { x0 + (y - y0) * slope }
}

/// Bit masks selecting the first n of eight lanes, for partial chunks. Comparing lanes into a
/// `SIMDMask` that is used more than once gets scalarized by the compiler; integer bit operations
/// on a loaded mask stay vector instructions.
enum LaneMask {
    /// Built once by the lazy initialiser (thread-safe), read-only afterwards.
    nonisolated(unsafe) static let table: UnsafePointer<SIMD8<UInt32>> = {
        let t = UnsafeMutablePointer<SIMD8<UInt32>>.allocate(capacity: 9)
        for n in 0...8 {
            var m = SIMD8<UInt32>()
            for lane in 0..<n { m[lane] = .max }
            t[n] = m
        }
        return UnsafePointer(t)
    }()

    @inline(__always)
    static func first(_ n: Int) -> SIMD8<UInt32> { table[n] }

    @inline(__always)
    static func select(_ mask: SIMD8<UInt32>, _ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        let ai = unsafeBitCast(a, to: SIMD8<UInt32>.self), bi = unsafeBitCast(b, to: SIMD8<UInt32>.self)
        return unsafeBitCast((ai & mask) | (bi & ~mask), to: SIMD8<Float>.self)
    }
}

@inline(__always)
func load(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
}

/// Sixteen lanes: one AVX-512 register, or two halves on AVX2. Streaming kernels whose time goes
/// to issuing instructions (the quantizer, the reduced grid's enlargement) take them where whole.
@inline(__always)
func load16(_ p: UnsafeMutablePointer<Float>) -> SIMD16<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Float>.self)
}

@inline(__always)
func store16(_ v: SIMD16<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD16<Float>.self)
}
