/// Turns premultiplied float bands into 8-bit output: dithered RGB, and from exactly those RGB
/// values BT.709 limited-range YUV 4:2:0 — fused in one pass over the band so no whole-frame
/// float or RGBA intermediate is needed for video.
///
/// The frame is composited over opaque black (a premultiplied colour over black is itself).
/// Dither is uniform in (−½, ½) code value from a hash of the pixel position only: enough to turn
/// bands into a fine grain whose average is the exact value, while colours that are already exact
/// codes (flat black, pure primaries) stay exact and noise-free. The offset is the same for R, G
/// and B so it adds luma grain, not colour noise, and static over time so the encoder does not
/// spend bits on flickering noise.
///
/// Kernels here and in the rest of the raster core use plain `a * b + c`, never fused
/// multiply-add: Swift does not contract them, so a portable x86-64 build (no FMA unit, where
/// `addingProduct` becomes a library call per lane) and a Haswell-level build compute the same
/// floats, and so the same bytes.
public enum Quantizer {
    // BT.709 luma coefficients and the limited-range scale factors.
    static let kr: Float = 0.2126
    static let kg: Float = 0.7152
    static let kb: Float = 0.0722
    static let yScale: Float = 219.0 / 255.0
    static let cbScale: Float = (224.0 / 255.0) / (2 * (1 - 0.0722))
    static let crScale: Float = (224.0 / 255.0) / (2 * (1 - 0.2126))

    /// Per-worker scratch: the sum of two quantized rows per channel, with one float of front
    /// padding (column −1, for the left chroma tap) and tail padding for 16-wide reads.
    public final class Scratch: @unchecked Sendable {
        let capacity: Int
        private let storage: UnsafeMutablePointer<Float>
        let sumR: UnsafeMutablePointer<Float>
        let sumG: UnsafeMutablePointer<Float>
        let sumB: UnsafeMutablePointer<Float>

        public init(width: Int) {
            capacity = ((width + 15) & ~15) + 16
            let plane = capacity + 8
            storage = .allocate(capacity: 3 * plane)
            storage.initialize(repeating: 0, count: 3 * plane)
            sumR = storage + 8
            sumG = storage + plane + 8
            sumB = storage + 2 * plane + 8
        }

        deinit { storage.deallocate() }
    }

    /// Dither offsets in (−½, ½) code value, a 64×64 tile repeated over the frame. The tile is
    /// filled from an integer hash of the position, so it is white noise within the tile; a table
    /// lookup costs one load where hashing per pixel cost a dozen vector integer ops.
    /// Filled once by the lazy initialiser (thread-safe) and only read afterwards.
    nonisolated(unsafe) static let ditherTile: UnsafePointer<Float> = {
        let tile = UnsafeMutablePointer<Float>.allocate(capacity: ditherTileSize * ditherTileSize)
        for y in 0..<ditherTileSize {
            for x in 0..<ditherTileSize {
                var h = UInt32(x) &* 0x9E37_79B1 ^ UInt32(y) &* 0x85EB_CA77
                h ^= h >> 15
                h &*= 0x2C1B_3C6D
                h ^= h >> 12
                h &*= 0x297A_2D39
                h ^= h >> 15
                // 24 bits → uniform in the open interval (−0.5, 0.5).
                tile[y * ditherTileSize + x] = (Float(h >> 8) + 0.5) / 16_777_216 - 0.5
            }
        }
        return UnsafePointer(tile)
    }()
    static let ditherTileSize = 64

    /// The dither offset of one pixel, for reference implementations in tests.
    public static func ditherScalar(x: Int, y: Int) -> Float {
        ditherTile[(y & (ditherTileSize - 1)) * ditherTileSize + (x & (ditherTileSize - 1))]
    }

    /// Writes dithered 8-bit values of band rows into `yuv` and/or `rgba` at frame rows
    /// `firstRow..<firstRow+rows`. `firstRow` and `rows` must be even when `yuv` is given, except
    /// that the band holding an odd frame's last row ends with it.
    /// With `straightAlpha` the RGBA gets the band's coverage as alpha and its colour divided by
    /// it (formats that keep transparency); otherwise it is the frame over black, opaque.
    public static func write(
        band: PlanarBand, firstRow: Int, rows: Int, yuv: YUV420Frame?, rgba: RGBA8Frame?, scratch: Scratch,
        straightAlpha: Bool = false
    ) {
        let width = band.width
        if let yuv {
            precondition(
                firstRow % 2 == 0 && (rows % 2 == 0 || firstRow + rows == yuv.height),
                "4:2:0 rows come in pairs")
            precondition(yuv.width == width, "frame and band widths differ")
            precondition(scratch.capacity >= ((width + 15) & ~15) + 16, "scratch too small")
        }
        var pairRow = 0
        while pairRow < rows {
            let pairRows = min(2, rows - pairRow)
            for k in 0..<pairRows {
                let row = pairRow + k
                writeRow(
                    band: band, row: row, frameRow: firstRow + row, yuv: yuv,
                    rgba: straightAlpha ? nil : rgba, scratch: scratch, accumulate: k == 1)
                if straightAlpha, let rgba {
                    writeStraightRow(band: band, row: row, frameRow: firstRow + row, into: rgba)
                }
            }
            if let yuv {
                if pairRows == 1 { repeatLastRow(scratch: scratch, width: width) }
                writeChroma(scratch: scratch, width: width, chromaRow: (firstRow + pairRow) / 2, into: yuv)
            }
            pairRow += 2
        }
    }

    /// Bands hold valid premultiplied values (0 ≤ colour ≤ alpha ≤ 1: every kernel that writes a
    /// band keeps that invariant), so c·255 + dither stays within (−0.5, 255.5) and rounds into
    /// 0…255 without a clamp.
    @inline(__always)
    private static func quantize(_ c: SIMD8<Float>, _ d: SIMD8<Float>) -> SIMD8<Float> {
        roundToInteger(c * 255 + d)
    }

    @inline(__always)
    private static func quantize(_ c: SIMD16<Float>, _ d: SIMD16<Float>) -> SIMD16<Float> {
        roundToInteger(c * 255 + d)
    }

    /// Round to nearest (ties to even) in two adds: at 1.5·2^23 the float spacing is exactly 1, on
    /// both sides of zero (plain 2^23 would mis-round small negative values).
    @inline(__always)
    static func roundToInteger(_ v: SIMD8<Float>) -> SIMD8<Float> {
        (v + 12_582_912) - 12_582_912
    }

    @inline(__always)
    static func roundToInteger(_ v: SIMD16<Float>) -> SIMD16<Float> {
        (v + 12_582_912) - 12_582_912
    }

    /// `bytes(roundToInteger(v))` for v that rounds into 0…255, in one add instead of three:
    /// v + 1.5·2^23 holds round(v) + 2^22 in its low mantissa bits, whose low byte is round(v)'s.
    @inline(__always)
    static func roundedBytes(_ v: SIMD8<Float>) -> SIMD8<UInt8> {
        SIMD8<UInt8>(truncatingIfNeeded: unsafeBitCast(v + 12_582_912, to: SIMD8<UInt32>.self))
    }

    @inline(__always)
    static func roundedBytes(_ v: SIMD16<Float>) -> SIMD16<UInt8> {
        SIMD16<UInt8>(truncatingIfNeeded: unsafeBitCast(v + 12_582_912, to: SIMD16<UInt32>.self))
    }

    @inline(__always)
    private static func bytes(_ integral: SIMD8<Float>) -> SIMD8<UInt8> {
        // For integral 0 ≤ v < 2^23 (or −0), v + 2^23 carries v in its low mantissa bits.
        let bits = unsafeBitCast(integral + 8_388_608, to: SIMD8<UInt32>.self)
        return SIMD8<UInt8>(truncatingIfNeeded: bits)
    }

    private static func writeRow(
        band: PlanarBand, row: Int, frameRow: Int, yuv: YUV420Frame?, rgba: RGBA8Frame?, scratch: Scratch,
        accumulate: Bool
    ) {
        let width = band.width
        let base = row &* band.stride
        let (inR, inG, inB) = (band.r + base, band.g + base, band.b + base)
        let (sumR, sumG, sumB) = (scratch.sumR, scratch.sumG, scratch.sumB)
        let ditherRow = ditherTile + (frameRow & (ditherTileSize - 1)) &* ditherTileSize
        let yOut = yuv.map { $0.y + frameRow &* $0.yStride }
        let rgbaOut = rgba.map { $0.bytes + frameRow &* $0.stride }
        var x = 0
        if rgbaOut == nil, let yOut {
            // Video alone: sixteen lanes a step, the eight-lane loop below for the rest. Each
            // lane's operations are the eight-lane loop's, so the bytes are the same.
            while x &+ 16 <= width {
                let d = UnsafeRawPointer(ditherRow + (x & (ditherTileSize - 1))).loadUnaligned(
                    as: SIMD16<Float>.self)
                let r = quantize(load16(inR + x), d)
                let g = quantize(load16(inG + x), d)
                let b = quantize(load16(inB + x), d)
                let luma = r * (kr * yScale) + g * (kg * yScale) + b * (kb * yScale)
                UnsafeMutableRawPointer(yOut + x).storeBytes(
                    of: roundedBytes(luma + 16), as: SIMD16<UInt8>.self)
                if accumulate {
                    store16(load16(sumR + x) + r, sumR + x)
                    store16(load16(sumG + x) + g, sumG + x)
                    store16(load16(sumB + x) + b, sumB + x)
                } else {
                    store16(r, sumR + x)
                    store16(g, sumG + x)
                    store16(b, sumB + x)
                }
                x &+= 16
            }
        }
        while x < width {
            let d = UnsafeRawPointer(ditherRow + (x & (ditherTileSize - 1))).loadUnaligned(
                as: SIMD8<Float>.self)
            let r = quantize(load(inR + x), d)
            let g = quantize(load(inG + x), d)
            let b = quantize(load(inB + x), d)
            let count = min(8, width &- x)
            if let yOut {
                let luma = r * (kr * yScale) + g * (kg * yScale) + b * (kb * yScale)
                store8(roundedBytes(luma + 16), yOut + x, count: count)
                if accumulate {
                    store(load(sumR + x) + r, sumR + x)
                    store(load(sumG + x) + g, sumG + x)
                    store(load(sumB + x) + b, sumB + x)
                } else {
                    store(r, sumR + x)
                    store(g, sumG + x)
                    store(b, sumB + x)
                }
            }
            if let rgbaOut {
                let rb = bytes(r), gb = bytes(g), bb = bytes(b)
                for i in 0..<count {
                    let p = rgbaOut + (x &+ i) &* 4
                    p[0] = rb[i]
                    p[1] = gb[i]
                    p[2] = bb[i]
                    p[3] = 255
                }
            }
            x &+= 8
        }
    }

    /// One row as straight-alpha RGBA: colour c/α and α, each dithered like the opaque path (so a
    /// fully opaque pixel gets exactly the opaque path's bytes) and clamped, since the division
    /// may round a hair past 1.
    private static func writeStraightRow(band: PlanarBand, row: Int, frameRow: Int, into rgba: RGBA8Frame) {
        let width = band.width
        let base = row &* band.stride
        let (inR, inG, inB, inA) = (band.r + base, band.g + base, band.b + base, band.a + base)
        let ditherRow = ditherTile + (frameRow & (ditherTileSize - 1)) &* ditherTileSize
        let out = rgba.bytes + frameRow &* rgba.stride
        var x = 0
        while x < width {
            let d = UnsafeRawPointer(ditherRow + (x & (ditherTileSize - 1))).loadUnaligned(
                as: SIMD8<Float>.self)
            let alpha = load(inA + x)
            let covered = alpha .> 0
            let inverse = SIMD8<Float>(repeating: 1) / alpha.replacing(with: 1, where: .!covered)
            @inline(__always) func straight(_ c: SIMD8<Float>) -> SIMD8<UInt8> {
                let value = (c * inverse).replacing(with: 0, where: .!covered)
                return roundedBytes(value.clamped(lowerBound: .zero, upperBound: .one) * 255 + d)
            }
            let r = straight(load(inR + x)), g = straight(load(inG + x)), b = straight(load(inB + x))
            let a = roundedBytes(alpha.clamped(lowerBound: .zero, upperBound: .one) * 255 + d)
            for i in 0..<min(8, width &- x) {
                let p = out + (x &+ i) &* 4
                p[0] = r[i]
                p[1] = g[i]
                p[2] = b[i]
                p[3] = a[i]
            }
            x &+= 8
        }
    }

    /// An odd frame's last row has no partner: the pair's sum is that row twice, as if repeated
    /// below the frame (doubling a float is exact, so the chroma is the same as a real repeat).
    private static func repeatLastRow(scratch: Scratch, width: Int) {
        for x in 0..<width {
            scratch.sumR[x] *= 2
            scratch.sumG[x] *= 2
            scratch.sumB[x] *= 2
        }
    }

    /// Chroma for one row pair: [1 2 1] horizontally around even columns (left siting) × the two
    /// rows, from the summed rows in scratch.
    private static func writeChroma(scratch: Scratch, width: Int, chromaRow: Int, into yuv: YUV420Frame) {
        let chromaWidth = yuv.chromaWidth
        let uOut = yuv.u + chromaRow &* yuv.uvStride
        let vOut = yuv.v + chromaRow &* yuv.uvStride
        // Column −1 repeats column 0, and for an odd width column `width` repeats the last.
        scratch.sumR[-1] = scratch.sumR[0]
        scratch.sumG[-1] = scratch.sumG[0]
        scratch.sumB[-1] = scratch.sumB[0]
        if width % 2 == 1 {
            scratch.sumR[width] = scratch.sumR[width - 1]
            scratch.sumG[width] = scratch.sumG[width - 1]
            scratch.sumB[width] = scratch.sumB[width - 1]
        }
        var i = 0
        // Sixteen chroma samples a step while whole, then eight: the same operations per lane.
        while i &+ 16 <= chromaWidth {
            let x = 2 &* i
            @inline(__always) func filtered(_ p: UnsafeMutablePointer<Float>) -> SIMD16<Float> {
                let lo = load16(p + x), hi = load16(p + (x &+ 16))
                let even = SIMD16(lowHalf: lo.evenHalf, highHalf: hi.evenHalf)
                let odd = SIMD16(lowHalf: lo.oddHalf, highHalf: hi.oddHalf)
                let left = SIMD16(
                    lowHalf: load16(p + (x &- 1)).evenHalf, highHalf: load16(p + (x &+ 15)).evenHalf)
                return (left + even * 2 + odd) * 0.125
            }
            let r = filtered(scratch.sumR)
            let g = filtered(scratch.sumG)
            let b = filtered(scratch.sumB)
            let luma = r * kr + g * kg + b * kb
            UnsafeMutableRawPointer(uOut + i).storeBytes(
                of: roundedBytes((b - luma) * cbScale + 128), as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(vOut + i).storeBytes(
                of: roundedBytes((r - luma) * crScale + 128), as: SIMD16<UInt8>.self)
            i &+= 16
        }
        while i < chromaWidth {
            let x = 2 &* i
            // Taps at columns 2i−1, 2i, 2i+1 for eight chroma samples, from three pairs of
            // unaligned loads and even/odd lane selections (no lane-by-lane inserts).
            @inline(__always) func filtered(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
                let lo = load(p + x), hi = load(p + (x &+ 8))
                let even = SIMD8(lowHalf: lo.evenHalf, highHalf: hi.evenHalf)
                let odd = SIMD8(lowHalf: lo.oddHalf, highHalf: hi.oddHalf)
                let left = SIMD8(lowHalf: load(p + (x &- 1)).evenHalf, highHalf: load(p + (x &+ 7)).evenHalf)
                return (left + even * 2 + odd) * 0.125
            }
            let r = filtered(scratch.sumR)
            let g = filtered(scratch.sumG)
            let b = filtered(scratch.sumB)
            let luma = r * kr + g * kg + b * kb
            // From RGB averages in 0…255, Cb and Cr land in 16…240: no clamp needed.
            let count = min(8, chromaWidth - i)
            store8(roundedBytes((b - luma) * cbScale + 128), uOut + i, count: count)
            store8(roundedBytes((r - luma) * crScale + 128), vOut + i, count: count)
            i &+= 8
        }
    }

    @inline(__always)
    private static func store8(_ v: SIMD8<UInt8>, _ p: UnsafeMutablePointer<UInt8>, count: Int) {
        if count == 8 {
            UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<UInt8>.self)
        } else {
            for i in 0..<count { p[i] = v[i] }
        }
    }
}

extension Quantizer {
    /// Plain scalar BT.709 limited-range conversion of an RGBA8 frame with the same chroma siting,
    /// written straight from the definitions: the reference the SIMD path is tested against.
    public static func referenceYUV(from rgba: RGBA8Frame) -> (y: [UInt8], u: [UInt8], v: [UInt8]) {
        let w = rgba.width, h = rgba.height
        var yPlane = [UInt8](repeating: 0, count: w * h)
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        var uPlane = [UInt8](repeating: 0, count: cw * ch)
        var vPlane = [UInt8](repeating: 0, count: cw * ch)
        func rgb(_ x: Int, _ y: Int) -> (Double, Double, Double) {
            let p = rgba.pixel(x: min(max(x, 0), w - 1), y: min(y, h - 1))
            return (Double(p[0]), Double(p[1]), Double(p[2]))
        }
        func luma(_ c: (Double, Double, Double)) -> Double { 0.2126 * c.0 + 0.7152 * c.1 + 0.0722 * c.2 }
        func byte(_ v: Double) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
        for y in 0..<h {
            for x in 0..<w { yPlane[y * w + x] = byte(16 + luma(rgb(x, y)) * 219 / 255) }
        }
        for cy in 0..<ch {
            for cx in 0..<cw {
                var s = (0.0, 0.0, 0.0)
                for (dx, weight) in [(-1, 1.0), (0, 2.0), (1, 1.0)] {
                    for row in [2 * cy, 2 * cy + 1] {
                        let c = rgb(2 * cx + dx, row)
                        s.0 += c.0 * weight
                        s.1 += c.1 * weight
                        s.2 += c.2 * weight
                    }
                }
                let c = (s.0 / 8, s.1 / 8, s.2 / 8)
                let l = luma(c)
                uPlane[cy * cw + cx] = byte(128 + (c.2 - l) / 1.8556 * 224 / 255)
                vPlane[cy * cw + cx] = byte(128 + (c.0 - l) / 1.5748 * 224 / 255)
            }
        }
        return (yPlane, uPlane, vPlane)
    }
}
