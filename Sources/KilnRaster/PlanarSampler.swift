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

    public init(image: PlanarBand, rows: Range<Int>, columns: Range<Int>, edges: Edges) {
        precondition(!rows.isEmpty && !columns.isEmpty, "sampling an empty region")
        (r, g, b, a) = (image.r, image.g, image.b, image.a)
        stride = Int32(image.stride)
        region = (rows, columns)
        self.edges = edges
        lo = SIMD2(Float(columns.lowerBound), Float(rows.lowerBound))
        hi = SIMD2(Float(columns.upperBound - 1), Float(rows.upperBound - 1))
        top = Int32(rows.lowerBound)
    }

    /// Premultiplied colour at eight frame positions.
    public func sample(x: SIMD8<Float>, y: SIMD8<Float>) -> (
        r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
    ) { colour(x: x, y: y) }

    /// `sample`, forced inline into the module's kernels (`@inline(__always)` was not honoured
    /// there: the call stayed, passing four vectors back through memory per eight pixels).
    @_transparent
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
        // Each row's two taps are read as one pair (columns c, c + 1) with one 64-bit load per
        // plane. The pair starts at the left tap, moved inside the region where that tap is
        // outside it; then each element's weight is that of the tap it holds, 0 if neither.
        let (cx, weightsX) = Self.pair(start: fx, fraction: wx, lo: lo.x, hi: hi.x)
        let (cy, weightsY) = Self.pair(start: fy, fraction: wy, lo: lo.y, hi: hi.y)
        let column = wholeNumberToInt(cx)
        let rowA = wholeNumberToInt(cy) &- top
        // The second row is read from inside the image even for a one-row region (weight 0).
        let rowB = wholeNumberToInt(between(cy + 1, lo.y, hi.y)) &- top
        let offA = rowA &* stride &+ column, offB = rowB &* stride &+ column
        @inline(__always) func plane(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
            let raw = UnsafeRawPointer(p)
            @inline(__always) func pairs(_ i: SIMD8<Int32>) -> (SIMD8<Float>, SIMD8<Float>) {
                @inline(__always) func pair(_ lane: Int) -> UInt64 {
                    raw.loadUnaligned(fromByteOffset: Int(i[lane]) &* 4, as: UInt64.self)
                }
                let both = unsafeBitCast(
                    SIMD8<UInt64>(pair(0), pair(1), pair(2), pair(3), pair(4), pair(5), pair(6), pair(7)),
                    to: SIMD16<Float>.self)
                return (both.evenHalf, both.oddHalf)
            }
            let (a0, a1) = pairs(offA), (b0, b1) = pairs(offB)
            let topRow = a0 * weightsX.first + a1 * weightsX.second
            let bottomRow = b0 * weightsX.first + b1 * weightsX.second
            return topRow * weightsY.first + bottomRow * weightsY.second
        }
        return (plane(r), plane(g), plane(b), plane(a))
    }

    /// The eight pixels from frame column `x` on frame row `y` as stored, when they all lie in
    /// the region: what `colour` returns at their centres (weights 1 and 0), without the taps.
    @_transparent
    func pixels(x: Int, y: Int) -> (r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>)? {
        guard region.rows.contains(y), x >= region.columns.lowerBound, x &+ 8 <= region.columns.upperBound
        else {
            return nil
        }
        let i = (y &- Int(top)) &* Int(stride) &+ x
        return (load(r + i), load(g + i), load(b + i), load(a + i))
    }

    /// Where a tap pair starts (inside [lo, hi − 1] when the region is at least two pixels
    /// wide) and the weights of its two elements, for the taps `start` (weight 1 − fraction)
    /// and `start + 1` (weight fraction); taps outside [lo, hi] weigh 0.
    @inline(__always)
    static func pair(start: SIMD8<Float>, fraction: SIMD8<Float>, lo: Float, hi: Float) -> (
        SIMD8<Float>, (first: SIMD8<Float>, second: SIMD8<Float>)
    ) {
        let zero = SIMD8<Float>()
        let near = (1 - fraction).replacing(with: zero, where: (start .< lo) .| (start .> hi))
        let far = fraction.replacing(with: zero, where: (start + 1 .< lo) .| (start + 1 .> hi))
        let c = between(start, lo, max(lo, hi - 1))
        // The pair holds (c, c + 1); c is start, start + 1 (start left of the region) or
        // start − 1 (start on its last pixel).
        let first = near.replacing(with: far, where: c .== start + 1).replacing(
            with: zero, where: c .== start - 1)
        let second = far.replacing(with: near, where: c .== start - 1).replacing(
            with: zero, where: c .== start + 1)
        return (c, (first, second))
    }
}
