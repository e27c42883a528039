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
