/// A region of a planar image repacked as interleaved premultiplied RGBA half-float texels, for
/// sampling at arbitrary positions: a bilinear tap pair (two neighbouring texels, all four
/// channels) is then one 16-byte load instead of eight scattered ones.
///
/// Half floats because a distortion's taps wander over the whole region and wait on memory: a
/// 1080p region is 16 MB instead of 33, and more of it stays in cache. Their 11-bit mantissa
/// keeps a tap within 0.06 of an 8-bit code value of the Float32 one (values up to 1; larger
/// ones, up to ±65504, keep the same relative precision).
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
    private(set) var storage: UnsafeMutablePointer<Float16>
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
            // Eight pixels at a time: four planar vectors become eight interleaved texels, made
            // half first so the interleaving moves half as many bytes.
            while x + 8 <= width {
                let r = Self.half(load(r + x)), g = Self.half(load(g + x))
                let b = Self.half(load(b + x)), a = Self.half(load(a + x))
                let out = UnsafeMutableRawPointer(target + 4 * x)
                // r0 g0 b0 a0 r1 g1 b1 a1 …, two texels to a 16-byte store.
                for i in 0..<4 {
                    let (p, q) = (2 * i, 2 * i + 1)
                    let texels = SIMD8(r[p], g[p], b[p], a[p], r[q], g[q], b[q], a[q])
                    out.storeBytes(of: texels, toByteOffset: 16 * i, as: SIMD8<Float16>.self)
                }
                x += 8
            }
            while x < width {
                let texel = Self.half(SIMD8(r[x], g[x], b[x], a[x], 0, 0, 0, 0))
                let t = target + 4 * x
                (t[0], t[1], t[2], t[3]) = (texel[0], texel[1], texel[2], texel[3])
                x += 1
            }
        }
    }

    /// Beyond the half float's range a value would become infinite, and a tap weighing it by 0
    /// would give NaN: it is held at the largest finite half instead.
    @inline(__always)
    private static func half(_ v: SIMD8<Float>) -> SIMD8<Float16> {
        let largest = SIMD8<Float>(repeating: 65504)
        return SIMD8<Float16>(
            v.replacing(with: largest, where: v .> largest).replacing(with: -largest, where: v .< -largest))
    }
}

/// Two neighbouring packed texels (all four channels of each) at `offset` bytes from `p`, as
/// Float32. A function of its own so the conversion is inlined into it and it into the
/// sampler: left to itself, the optimiser called the standard library's conversion out of line
/// from the large sampling loops, a call per tap row.
@inline(__always)
func texelPair(_ p: UnsafeRawPointer, offset: Int = 0) -> SIMD8<Float> {
    let h = p.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float16>.self)
    return SIMD8(
        Float(h[0]), Float(h[1]), Float(h[2]), Float(h[3]), Float(h[4]), Float(h[5]), Float(h[6]), Float(h[7])
    )
}
