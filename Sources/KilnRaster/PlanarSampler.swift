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
    @inline(__always)
    public func sample(x: SIMD8<Float>, y: SIMD8<Float>) -> (
        r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
    ) {
        // Tap coordinates: pixel i's centre is i + 0.5. Clamping to one pixel beyond the region
        // keeps far-off (and non-finite) positions out of the integer conversion; there every
        // tap is outside and weighs nothing.
        var sx = x - 0.5, sy = y - 0.5
        if edges == .clamp {
            sx = between(sx, lo.x, hi.x)
            sy = between(sy, lo.y, hi.y)
        } else {
            sx = between(sx, lo.x - 1, hi.x + 1)
            sy = between(sy, lo.y - 1, hi.y + 1)
        }
        let fx = floorOfSmall(sx), fy = floorOfSmall(sy)
        let wx = sx - fx, wy = sy - fy
        let zero = SIMD8<Float>(), one = SIMD8<Float>(repeating: 1)
        // Weight of each tap; a tap outside the region weighs 0 and is read from inside it.
        let leftIn = (fx .>= lo.x) .& (fx .<= hi.x), rightIn = (fx + 1 .>= lo.x) .& (fx + 1 .<= hi.x)
        let topIn = (fy .>= lo.y) .& (fy .<= hi.y), bottomIn = (fy + 1 .>= lo.y) .& (fy + 1 .<= hi.y)
        let wLeft = (one - wx).replacing(with: zero, where: .!leftIn)
        let wRight = wx.replacing(with: zero, where: .!rightIn)
        let wTop = (one - wy).replacing(with: zero, where: .!topIn)
        let wBottom = wy.replacing(with: zero, where: .!bottomIn)
        let x0 = wholeNumberToInt(between(fx, lo.x, hi.x)), x1 = wholeNumberToInt(between(fx + 1, lo.x, hi.x))
        let y0 = wholeNumberToInt(between(fy, lo.y, hi.y)) &- top
        let y1 = wholeNumberToInt(between(fy + 1, lo.y, hi.y)) &- top
        let i00 = y0 &* stride &+ x0, i10 = y0 &* stride &+ x1
        let i01 = y1 &* stride &+ x0, i11 = y1 &* stride &+ x1
        let w00 = wLeft * wTop, w10 = wRight * wTop, w01 = wLeft * wBottom, w11 = wRight * wBottom
        @inline(__always) func plane(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
            @inline(__always) func gather(_ i: SIMD8<Int32>) -> SIMD8<Float> {
                SIMD8(
                    p[Int(i[0])], p[Int(i[1])], p[Int(i[2])], p[Int(i[3])], p[Int(i[4])], p[Int(i[5])],
                    p[Int(i[6])], p[Int(i[7])])
            }
            return gather(i00) * w00 + gather(i10) * w10 + gather(i01) * w01 + gather(i11) * w11
        }
        return (plane(r), plane(g), plane(b), plane(a))
    }
}
