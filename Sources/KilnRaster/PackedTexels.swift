/// A region of a planar image repacked as interleaved premultiplied RGBA Float32 texels, for
/// sampling at arbitrary positions: a bilinear tap pair (two neighbouring texels, all four
/// channels) is then one 32-byte load instead of eight scattered ones.
///
/// A transparent border surrounds the region (one texel before it, two after it in both
/// directions), so taps just outside read transparent without any test, and a pair starting
/// on the last texel stays in the buffer. Reused from frame to frame: `prepare` grows it only
/// when a region is larger than any before.
public final class PackedTexels: @unchecked Sendable {
    public private(set) var width = 0
    public private(set) var height = 0
    /// Texels per row, border included.
    public private(set) var stride = 3
    private(set) var storage: UnsafeMutablePointer<Float>
    private var capacity: Int

    public init() {
        capacity = 4 * 3 * 3
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    /// Sizes the buffer for a `width` × `height` region and clears its border.
    public func prepare(width: Int, height: Int) {
        precondition(width > 0 && height > 0)
        let needed = 4 * (width + 3) * (height + 3)
        if needed > capacity {
            storage.deallocate()
            capacity = needed
            storage = .allocate(capacity: capacity)
            storage.initialize(repeating: 0, count: capacity)
        }
        (self.width, self.height, stride) = (width, height, width + 3)
        let rowFloats = 4 * stride
        storage.update(repeating: 0, count: rowFloats)
        (storage + rowFloats * (height + 1)).update(repeating: 0, count: 2 * rowFloats)
        for row in 1...height {
            let base = storage + row * rowFloats
            base.update(repeating: 0, count: 4)
            (base + 4 * (width + 1)).update(repeating: 0, count: 8)
        }
    }

    /// Copies `rows` rows of the region from `image` (its row `imageRow` is region row
    /// `regionRow`; region column 0 is image column `firstColumn`). Different rows may be packed
    /// by different threads.
    public func pack(from image: PlanarBand, imageRow: Int, regionRow: Int, rows: Int, firstColumn: Int) {
        for k in 0..<rows {
            let source = (imageRow + k) * image.stride + firstColumn
            let (r, g, b, a) = (image.r + source, image.g + source, image.b + source, image.a + source)
            let target = storage + 4 * ((regionRow + k + 1) * stride + 1)
            var x = 0
            // Eight pixels at a time: four planar vectors become eight interleaved texels.
            while x + 8 <= width {
                // r0 g0 b0 a0 r1 g1 b1 a1 …: interleave (r, g) and (b, a), then take pairs of each.
                let rg = interleave(load(r + x), load(g + x)), ba = interleave(load(b + x), load(a + x))
                let out = UnsafeMutableRawPointer(target + 4 * x)
                for i in 0..<4 {
                    let texels = SIMD8<Float>(
                        lowHalf: SIMD4(rg[4 * i], rg[4 * i + 1], ba[4 * i], ba[4 * i + 1]),
                        highHalf: SIMD4(rg[4 * i + 2], rg[4 * i + 3], ba[4 * i + 2], ba[4 * i + 3]))
                    out.storeBytes(of: texels, toByteOffset: 32 * i, as: SIMD8<Float>.self)
                }
                x += 8
            }
            while x < width {
                let t = target + 4 * x
                (t[0], t[1], t[2], t[3]) = (r[x], g[x], b[x], a[x])
                x += 1
            }
        }
    }

    /// a0 b0 a1 b1 … a7 b7.
    @inline(__always)
    private func interleave(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD16<Float> {
        var result = SIMD16<Float>()
        for i in 0..<8 {
            result[2 * i] = a[i]
            result[2 * i + 1] = b[i]
        }
        return result
    }
}
