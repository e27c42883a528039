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
    let packed: UnsafeMutablePointer<Float>
    /// Floats per packed row.
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
    ) { colour(x: x, y: y) }

    /// `sample`. One call per eight pixels: inlined, it made the pipeline kernel so large that
    /// the optimiser left the standard library's lane shuffles in it as calls, which cost more.
    @inline(never)
    func colour(x: SIMD8<Float>, y: SIMD8<Float>) -> (
        r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
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
        let index = row &* packedRow &+ column &* 4
        let rowFloats = Int(packedRow)
        @inline(__always) func texel(_ lane: Int) -> SIMD4<Float> {
            let p = UnsafeRawPointer(packed + Int(index[lane]))
            // Both taps of a row, all four channels: (left texel, right texel).
            let upper = p.loadUnaligned(as: SIMD8<Float>.self)
            let lower = p.loadUnaligned(fromByteOffset: 4 &* rowFloats, as: SIMD8<Float>.self)
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
