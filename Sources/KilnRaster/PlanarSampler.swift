/// Bilinear sampling of a rendered layer held in a planar image (an offscreen band whose row 0 is
/// frame row `region.rows.lowerBound`, columns are frame columns).
///
/// Positions are frame coordinates, pixel centres at +0.5. Only `region` holds the layer: taps
/// outside it read as transparent (`Edges.transparent`, so the layer's edge fades over one
/// pixel, as a GPU sampler with a transparent border does), or repeat the nearest edge pixel
/// (`Edges.clamp`, "clamp to edge").
public struct PlanarSampler: @unchecked Sendable {
    public enum Edges: String, Sendable, CaseIterable {
        case transparent
        case clamp
    }

    let r: UnsafeMutablePointer<Float>
    let g: UnsafeMutablePointer<Float>
    let b: UnsafeMutablePointer<Float>
    let a: UnsafeMutablePointer<Float>
    let stride: Int32
    public let region: (rows: Range<Int>, columns: Range<Int>)
    public let edges: Edges
    // The region's first and last pixel (column, row), and the image row of frame row 0.
    let lo: SIMD2<Float>
    let hi: SIMD2<Float>
    let top: Int32
    /// The region repacked for the taps (`PackedTexels`), kept alive here.
    let texels: PackedTexels
    let packed: UnsafeMutablePointer<Float16>
    /// Halves per packed row.
    let packedRow: Int32

    /// Samples `image`, whose region has already been packed into `texels`.
    public init(image: PlanarBand, rows: Range<Int>, columns: Range<Int>, edges: Edges, texels: PackedTexels)
    {
        precondition(!rows.isEmpty && !columns.isEmpty, "sampling an empty region")
        precondition(texels.width == columns.count && texels.height == rows.count, "packed region differs")
        self.texels = texels
        packed = texels.storage
        packedRow = Int32(4 * texels.stride)
        (r, g, b, a) = (image.r, image.g, image.b, image.a)
        stride = Int32(image.stride)
        region = (rows, columns)
        self.edges = edges
        lo = SIMD2(Float(columns.lowerBound), Float(rows.lowerBound))
        hi = SIMD2(Float(columns.upperBound - 1), Float(rows.upperBound - 1))
        top = Int32(rows.lowerBound)
    }

    /// Samples `image`, packing its region first (one thread; tests and benchmarks).
    public init(image: PlanarBand, rows: Range<Int>, columns: Range<Int>, edges: Edges) {
        let texels = PackedTexels()
        texels.prepare(width: columns.count, height: rows.count)
        texels.pack(from: image, imageRow: 0, regionRow: 0, rows: rows.count, firstColumn: columns.lowerBound)
        self.init(image: image, rows: rows, columns: columns, edges: edges, texels: texels)
    }

    /// Premultiplied colour at eight frame positions.
    public func sample(x: SIMD8<Float>, y: SIMD8<Float>) -> (
        r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
    ) { color(x: x, y: y) }

    /// `sample`. One call per eight pixels: inlined, it made the pipeline kernel so large that
    /// the optimiser left the standard library's lane shuffles in it as calls, which cost more.
    @inline(never)
    func color(x: SIMD8<Float>, y: SIMD8<Float>) -> (
        r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
    ) { taps(x: x, y: y) }

    /// `colour` at `count` groups of eight positions: group k's colour goes to
    /// `colour[4k]…colour[4k + 3]` (r, g, b, a). The groups' taps overlap one another's memory
    /// waits. `scratch` has room for 2 × `count` vectors, `index` for `count`.
    @inline(never)
    func color(
        x: UnsafePointer<SIMD8<Float>>, y: UnsafePointer<SIMD8<Float>>, count: Int,
        into color: UnsafeMutablePointer<SIMD8<Float>>, scratch: UnsafeMutablePointer<SIMD8<Float>>,
        index: UnsafeMutablePointer<SIMD8<Int32>>
    ) {
        // In two passes over the groups, where each reads and then the reads: a group's texel
        // reads do not wait for its own position arithmetic.
        let wx = scratch, wy = wx + count
        for k in 0..<count { (index[k], wx[k], wy[k]) = place(x: x[k], y: y[k]) }
        // Each lane's filtered texel (r, g, b, a) is stored as it is and the group's planes are
        // made from memory in a pass of their own: built straight from the filtering, the
        // transpose was turned into element-by-element texel loads, four times the work.
        let rowBytes = 2 &* Int(packedRow)
        for k in 0..<count {
            let group = index[k], across = wx[k], down = wy[k]
            let out = UnsafeMutableRawPointer(color + 4 &* k)
            // Lanes l and l + 4 share a vector, 32-byte slot l. They are filtered across in
            // one: each lane's left and right texels gathered from the two rows' lerps, so every
            // operation works on eight floats (one lane at a time, the compiler split each into
            // two four-float halves).
            @inline(__always) func lanes(_ l: Int) {
                let p = UnsafeRawPointer(packed + Int(group[l])),
                    q = UnsafeRawPointer(packed + Int(group[l &+ 4]))
                let upperP = texelPair(p), lowerP = texelPair(p, offset: rowBytes)
                let upperQ = texelPair(q), lowerQ = texelPair(q, offset: rowBytes)
                let v = upperP + (lowerP - upperP) * SIMD8(repeating: down[l])
                let w = upperQ + (lowerQ - upperQ) * SIMD8(repeating: down[l &+ 4])
                let left = SIMD8(lowHalf: v.lowHalf, highHalf: w.lowHalf)
                let right = SIMD8(lowHalf: v.highHalf, highHalf: w.highHalf)
                let weight = SIMD8(
                    lowHalf: SIMD4(repeating: across[l]), highHalf: SIMD4(repeating: across[l &+ 4]))
                out.storeBytes(
                    of: left + (right - left) * weight, toByteOffset: 32 &* l, as: SIMD8<Float>.self)
            }
            lanes(0)
            lanes(1)
            lanes(2)
            lanes(3)
        }
        for k in 0..<count {
            let c = color + 4 &* k
            (c[0], c[1], c[2], c[3]) = planes(c[0], c[1], c[2], c[3])
        }
    }

    /// Planes r, g, b, a of eight texels held as (lane l | lane l + 4) in `p0`…`p3` (l = 0…3):
    /// a 4 × 4 transpose in each 128-bit half.
    @inline(__always)
    private func planes(_ p0: SIMD8<Float>, _ p1: SIMD8<Float>, _ p2: SIMD8<Float>, _ p3: SIMD8<Float>) -> (
        SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>
    ) {
        let t0 = SIMD8(p0[0], p1[0], p0[1], p1[1], p0[4], p1[4], p0[5], p1[5])
        let t1 = SIMD8(p0[2], p1[2], p0[3], p1[3], p0[6], p1[6], p0[7], p1[7])
        let t2 = SIMD8(p2[0], p3[0], p2[1], p3[1], p2[4], p3[4], p2[5], p3[5])
        let t3 = SIMD8(p2[2], p3[2], p2[3], p3[3], p2[6], p3[6], p2[7], p3[7])
        return (
            SIMD8(t0[0], t0[1], t2[0], t2[1], t0[4], t0[5], t2[4], t2[5]),
            SIMD8(t0[2], t0[3], t2[2], t2[3], t0[6], t0[7], t2[6], t2[7]),
            SIMD8(t1[0], t1[1], t3[0], t3[1], t1[4], t1[5], t3[4], t3[5]),
            SIMD8(t1[2], t1[3], t3[2], t3[3], t1[6], t1[7], t3[6], t3[7])
        )
    }

    @inline(__always)
    private func taps(x: SIMD8<Float>, y: SIMD8<Float>) -> (
        r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
    ) {
        let (index, wx, wy) = place(x: x, y: y)
        return taps(index: index, wx: wx, wy: wy)
    }

    /// Where `colour` reads: each lane's upper left packed texel (an element offset into
    /// `packed`) and its weights towards the right and lower texels.
    @inline(__always)
    private func place(x: SIMD8<Float>, y: SIMD8<Float>) -> (
        index: SIMD8<Int32>, wx: SIMD8<Float>, wy: SIMD8<Float>
    ) {
        // Tap coordinates: pixel i's centre is i + 0.5. Clamping to one pixel beyond the region
        // keeps far-off (and non-finite) positions out of the integer conversion; there every
        // tap is outside and weighs nothing.
        // A NaN position (none of Kiln's stages makes one) would otherwise reach the index
        // arithmetic; it reads as the region's corner instead.
        var sx = (x - 0.5).replacing(with: lo.x, where: .!(x .== x))
        var sy = (y - 0.5).replacing(with: lo.y, where: .!(y .== y))
        if edges == .clamp {
            sx = between(sx, lo.x, hi.x)
            sy = between(sy, lo.y, hi.y)
        } else {
            sx = between(sx, lo.x - 1, hi.x + 1)
            sy = between(sy, lo.y - 1, hi.y + 1)
        }
        let fx = floorOfSmall(sx), fy = floorOfSmall(sy)
        let wx = sx - fx, wy = sy - fy
        // The packed texel of (fx, fy); its right and lower neighbours follow. Taps outside the
        // region land in the transparent border.
        let column = wholeNumberToInt(fx - lo.x) &+ 1, row = wholeNumberToInt(fy - lo.y) &+ 1
        return (row &* packedRow &+ column &* 4, wx, wy)
    }

    /// `colour`'s filtering at the texels `place` found.
    @inline(__always)
    private func taps(index: SIMD8<Int32>, wx: SIMD8<Float>, wy: SIMD8<Float>) -> (
        r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
    ) {
        let rowBytes = 2 &* Int(packedRow)
        @inline(__always) func texel(_ lane: Int) -> SIMD4<Float> {
            let p = UnsafeRawPointer(packed + Int(index[lane]))
            // Both taps of a row, all four channels: (left texel, right texel).
            let upper = texelPair(p), lower = texelPair(p, offset: rowBytes)
            let v = upper + (lower - upper) * SIMD8(repeating: wy[lane])
            return v.lowHalf + (v.highHalf - v.lowHalf) * SIMD4(repeating: wx[lane])
        }
        // Eight interleaved results back to planes: pairs of texels, then even and odd lanes twice.
        let q01 = SIMD8(lowHalf: texel(0), highHalf: texel(1)),
            q23 = SIMD8(lowHalf: texel(2), highHalf: texel(3))
        let q45 = SIMD8(lowHalf: texel(4), highHalf: texel(5)),
            q67 = SIMD8(lowHalf: texel(6), highHalf: texel(7))
        let front = SIMD16(lowHalf: q01, highHalf: q23), back = SIMD16(lowHalf: q45, highHalf: q67)
        let redBlue = SIMD16(lowHalf: front.evenHalf, highHalf: back.evenHalf)
        let greenAlpha = SIMD16(lowHalf: front.oddHalf, highHalf: back.oddHalf)
        return (redBlue.evenHalf, greenAlpha.evenHalf, redBlue.oddHalf, greenAlpha.oddHalf)
    }

    /// Those eight pixels as the taps read them (`holds` must be true): the packed copy's texels,
    /// what `colour` returns at their centres, read without the taps' arithmetic.
    @inline(__always)
    func packedPixels(x: Int, y: Int) -> (r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>)
    {
        // The packed copy has a one-texel border: pixel (x, y) is texel (x − first column + 1,
        // y − first row + 1).
        let p = UnsafeRawPointer(
            packed + ((y &- Int(top) &+ 1) &* Int(packedRow) &+ (x &- region.columns.lowerBound &+ 1) &* 4))
        let t01 = texelPair(p), t23 = texelPair(p, offset: 16)
        let t45 = texelPair(p, offset: 32), t67 = texelPair(p, offset: 48)
        let (r, g, b, a) = planes(
            SIMD8(lowHalf: t01.lowHalf, highHalf: t45.lowHalf),
            SIMD8(lowHalf: t01.highHalf, highHalf: t45.highHalf),
            SIMD8(lowHalf: t23.lowHalf, highHalf: t67.lowHalf),
            SIMD8(lowHalf: t23.highHalf, highHalf: t67.highHalf))
        return (r, g, b, a)
    }

    /// Whether the eight pixels from frame column `x` on frame row `y` all lie in the region.
    @_transparent
    func holds(x: Int, y: Int) -> Bool {
        region.rows.contains(y) && x >= region.columns.lowerBound && x &+ 8 <= region.columns.upperBound
    }

    /// Those eight pixels as stored (`holds` must be true): what `colour` returns at their
    /// centres (weights 1 and 0), without the taps.
    @_transparent
    func pixels(x: Int, y: Int) -> (r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>) {
        let i = (y &- Int(top)) &* Int(stride) &+ x
        return (load(r + i), load(g + i), load(b + i), load(a + i))
    }
}
