/// `NoiseTexture`'s lookup with its constants worked out once (a warp keeps one for all its
/// evaluations): no divisions, conversions or reads through the class per eight lanes.
public struct NoiseSampler: @unchecked Sendable {
    @usableFromInline let width: Float
    @usableFromInline let height: Float
    @usableFromInline let inverseWidth: Float
    @usableFromInline let inverseHeight: Float
    /// The last position inside the texture on each axis (`width.nextDown`).
    @usableFromInline let lastX: Float
    @usableFromInline let lastY: Float
    @usableFromInline let stride: Int32
    /// Bytes per padded row.
    @usableFromInline let rowBytes: Int
    /// The texture's immutable texels; the texture is kept alive by whoever holds the sampler.
    @usableFromInline let texels: UnsafeMutablePointer<Float>

    init(_ texture: NoiseTexture) {
        (width, height) = (Float(texture.width), Float(texture.height))
        (inverseWidth, inverseHeight) = (1 / width, 1 / height)
        (lastX, lastY) = (width.nextDown, height.nextDown)
        stride = Int32(texture.stride)
        rowBytes = 8 * texture.stride
        texels = texture.texels
    }

    /// `NoiseTexture.sample`, forced inline into the warp kernel.
    @_transparent
    public func lookup(u: SIMD8<Float>, v: SIMD8<Float>) -> (red: SIMD8<Float>, green: SIMD8<Float>) {
        let (top, wx, wy) = place(u: u, v: v)
        return taps(top: top, wx: wx, wy: wy)
    }

    /// Where `lookup` reads: each lane's upper left texel (a float offset into `texels`) and
    /// its weights towards the right and lower texels.
    @_transparent
    public func place(u: SIMD8<Float>, v: SIMD8<Float>) -> (
        top: SIMD8<Int32>, wx: SIMD8<Float>, wy: SIMD8<Float>
    ) {
        let w = width, h = height
        var tx = u * w - 0.5, ty = v * h - 0.5
        // Wrap into [0, size): positions far outside stay finite and inside after this.
        tx = tx - floorOfSmall(between(tx * inverseWidth, -2_000_000, 2_000_000)) * w
        ty = ty - floorOfSmall(between(ty * inverseHeight, -2_000_000, 2_000_000)) * h
        tx = between(tx, 0, lastX)
        ty = between(ty, 0, lastY)
        let fx = floorOfSmall(tx), fy = floorOfSmall(ty)
        return ((wholeNumberToInt(fy) &* stride &+ wholeNumberToInt(fx)) &* 2, tx - fx, ty - fy)
    }

    /// Whether the eight lanes of `top` (from `place`) read one texel row, at one column or the
    /// one after it: then `rowTaps` does what `taps` does. Eight neighbouring pixels of a row
    /// usually do (a texel spans several frame pixels).
    @_transparent
    public func sharesRow(_ top: SIMD8<Int32>) -> Bool {
        // Vector against vector: against a scalar, the compiler tested lane by lane.
        let step = top &- SIMD8(repeating: top[0])
        return all((step .== SIMD8<Int32>()) .| (step .== SIMD8<Int32>(repeating: 2)))
    }

    /// `taps` for lanes that `sharesRow` accepts, from six texel values per row (the first lane's
    /// texel and the two after it) picked per lane, instead of two loads and a transpose per lane.
    /// The arithmetic per lane is `taps`'s, so the results are the same floats.
    @_transparent
    public func rowTaps(top: SIMD8<Int32>, wx: SIMD8<Float>, wy: SIMD8<Float>) -> (
        red: SIMD8<Float>, green: SIMD8<Float>
    ) {
        let upper = texels + Int(top[0]), lower = upper + rowBytes / 4
        // Lanes a column on read texels 1 and 2 where the others read 0 and 1. Their step (0 or
        // 2) as a float, compared as floats: an integer comparison feeding a float selection
        // was compiled lane by lane.
        let step = top &- SIMD8(repeating: top[0])
        let on = unsafeBitCast(step | 0x4B00_0000, to: SIMD8<Float>.self) .> 8_388_608
        let upperLeftRed = SIMD8(repeating: upper[0]).replacing(with: upper[2], where: on)
        let upperLeftGreen = SIMD8(repeating: upper[1]).replacing(with: upper[3], where: on)
        let upperRightRed = SIMD8(repeating: upper[2]).replacing(with: upper[4], where: on)
        let upperRightGreen = SIMD8(repeating: upper[3]).replacing(with: upper[5], where: on)
        let lowerLeftRed = SIMD8(repeating: lower[0]).replacing(with: lower[2], where: on)
        let lowerLeftGreen = SIMD8(repeating: lower[1]).replacing(with: lower[3], where: on)
        let lowerRightRed = SIMD8(repeating: lower[2]).replacing(with: lower[4], where: on)
        let lowerRightGreen = SIMD8(repeating: lower[3]).replacing(with: lower[5], where: on)
        let leftRed = upperLeftRed + (lowerLeftRed - upperLeftRed) * wy
        let leftGreen = upperLeftGreen + (lowerLeftGreen - upperLeftGreen) * wy
        let rightRed = upperRightRed + (lowerRightRed - upperRightRed) * wy
        let rightGreen = upperRightGreen + (lowerRightGreen - upperRightGreen) * wy
        return (leftRed + (rightRed - leftRed) * wx, leftGreen + (rightGreen - leftGreen) * wx)
    }

    /// `lookup`'s filtering at the texels `place` found.
    @_transparent
    public func taps(top: SIMD8<Int32>, wx: SIMD8<Float>, wy: SIMD8<Float>) -> (
        red: SIMD8<Float>, green: SIMD8<Float>
    ) {
        let rowBytes = self.rowBytes
        // Per pixel, the two texels of each row are adjacent (red, green) pairs: one 16-byte
        // load per row gives both taps of both channels.
        @inline(__always) func lookup(_ lane: Int) -> SIMD2<Float> {
            let p = UnsafeRawPointer(texels + Int(top[lane]))
            let upper = p.loadUnaligned(as: SIMD4<Float>.self)
            let lower = p.loadUnaligned(fromByteOffset: rowBytes, as: SIMD4<Float>.self)
            let v = upper + (lower - upper) * SIMD4(repeating: wy[lane])
            return v.lowHalf + (v.highHalf - v.lowHalf) * SIMD2(repeating: wx[lane])
        }
        let front = SIMD8(
            lowHalf: SIMD4(lowHalf: lookup(0), highHalf: lookup(1)),
            highHalf: SIMD4(lowHalf: lookup(2), highHalf: lookup(3)))
        let back = SIMD8(
            lowHalf: SIMD4(lowHalf: lookup(4), highHalf: lookup(5)),
            highHalf: SIMD4(lowHalf: lookup(6), highHalf: lookup(7)))
        let both = SIMD16(lowHalf: front, highHalf: back)
        return (both.evenHalf, both.oddHalf)
    }
}
