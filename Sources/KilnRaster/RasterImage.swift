/// A decoded image ready for sampling: premultiplied RGBA8 texels packed one per UInt32
/// (r | g << 8 | b << 16 | a << 24), with a mip pyramid of 2×2 box-filtered levels so that
/// shrinking it (by its transform or an animated scale) never aliases.
///
/// Eight bits per premultiplied channel is what decoders give for photos; it keeps a 4K photo
/// and its pyramid at 45 MB instead of 180 MB as planar floats, and makes a bilinear tap one load.
public final class RasterImage: Sendable {
    public struct Level: Sendable {
        public let width: Int
        public let height: Int
        /// Row-major with one extra column and one extra row repeating the last ones (`stride` =
        /// width + 1): a bilinear tap reads its two horizontal neighbours with one 64-bit load,
        /// and the pair at the right or bottom edge stays inside the allocation.
        public let texels: [UInt32]
        public var stride: Int { width + 1 }

        /// `packed` holds width × height texels, row-major, unpadded.
        init(width: Int, height: Int, packed: [UInt32]) {
            self.width = width
            self.height = height
            // Row by row through raw buffers: a video layer builds one of these per frame shown.
            texels = [UInt32](unsafeUninitializedCapacity: (width + 1) * (height + 1)) { padded, count in
                packed.withUnsafeBufferPointer { source in
                    for y in 0...height {
                        let from = source.baseAddress! + min(y, height - 1) * width
                        let to = padded.baseAddress! + y * (width + 1)
                        to.initialize(from: from, count: width)
                        (to + width).initialize(to: from[width - 1])
                    }
                }
                count = (width + 1) * (height + 1)
            }
        }

        func texel(x: Int, y: Int) -> UInt32 { texels[y * stride + x] }
    }

    public let width: Int
    public let height: Int
    /// Level 0 is the image itself; each next level halves both sides (rounding up) down to 1×1.
    public let levels: [Level]
    /// Per row of level 0, the columns from its first to its last texel that is not fully
    /// transparent (empty for a transparent row): what a whole-pixel composite has to visit.
    /// Text pictures are mostly transparent around and between their lines of ink.
    public let inkSpans: [Range<Int>]

    /// `premultipliedRGBA` holds width × height × 4 bytes, row-major, premultiplied.
    public init(width: Int, height: Int, premultipliedRGBA bytes: [UInt8]) {
        precondition(width > 0 && height > 0 && bytes.count == width * height * 4, "image size mismatch")
        self.width = width
        self.height = height
        let texels = [UInt32](unsafeUninitializedCapacity: width * height) { packed, count in
            bytes.withUnsafeBufferPointer { bytes in
                for i in 0..<(width * height) {
                    // Premultiplied storage must keep colour ≤ alpha; decoders' rounding may not.
                    let a = bytes[4 * i + 3]
                    let r = min(bytes[4 * i], a), g = min(bytes[4 * i + 1], a), b = min(bytes[4 * i + 2], a)
                    packed[i] = UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
                }
            }
            count = width * height
        }
        var spans: [Range<Int>] = []
        spans.reserveCapacity(height)
        texels.withUnsafeBufferPointer { texels in
            for y in 0..<height {
                let row = UnsafeBufferPointer(rebasing: texels[(y * width)..<((y + 1) * width)])
                if let first = row.firstIndex(where: { $0 >> 24 != 0 }),
                    let last = row.lastIndex(where: { $0 >> 24 != 0 })
                {
                    spans.append(first..<(last + 1))
                } else {
                    spans.append(0..<0)
                }
            }
        }
        inkSpans = spans
        var levels = [Level(width: width, height: height, packed: texels)]
        while let last = levels.last, last.width > 1 || last.height > 1 {
            levels.append(Self.halve(last))
        }
        self.levels = levels
    }

    /// `straightRGBA` holds width × height × 4 bytes, row-major, not premultiplied (as most
    /// decoders give them); each colour is multiplied by its alpha, rounded to nearest.
    public convenience init(width: Int, height: Int, straightRGBA bytes: [UInt8]) {
        var premultiplied = bytes
        premultiplied.withUnsafeMutableBufferPointer { pixels in
            for i in stride(from: 0, to: pixels.count, by: 4) {
                let a = UInt32(pixels[i + 3])
                guard a < 255 else { continue }
                for c in i..<(i + 3) {
                    pixels[c] = UInt8((UInt32(pixels[c]) * a + 127) / 255)
                }
            }
        }
        self.init(width: width, height: height, premultipliedRGBA: premultiplied)
    }

    /// One texel of level 0 as premultiplied components 0…255 (tests).
    public func texel(x: Int, y: Int, level: Int = 0) -> SIMD4<UInt8> {
        let l = levels[level]
        let t = l.texel(x: x, y: y)
        return SIMD4(UInt8(t & 0xFF), UInt8(t >> 8 & 0xFF), UInt8(t >> 16 & 0xFF), UInt8(t >> 24))
    }

    /// The next level: each texel averages the (up to) 2×2 texels it covers, rounded to nearest
    /// (halves to even).
    /// Odd edges repeat their last row or column, which keeps the average unbiased at borders.
    static func halve(_ level: Level) -> Level {
        let w = (level.width + 1) / 2, h = (level.height + 1) / 2
        let stride = level.stride
        let texels = [UInt32](unsafeUninitializedCapacity: w * h) { halved, count in
            level.texels.withUnsafeBufferPointer { source in
                for y in 0..<h {
                    let row0 = min(2 * y, level.height - 1) * stride,
                        row1 = min(2 * y + 1, level.height - 1) * stride
                    for x in 0..<w {
                        let x0 = min(2 * x, level.width - 1), x1 = min(2 * x + 1, level.width - 1)
                        // The four texels' channels side by side in 16-bit lanes (even channels
                        // in one word, odd in the other), summed without carries between them.
                        let taps = (
                            source[row0 + x0], source[row0 + x1], source[row1 + x0], source[row1 + x1]
                        )
                        let even =
                            UInt64(taps.0 & 0x00FF_00FF) + UInt64(taps.1 & 0x00FF_00FF)
                            + UInt64(taps.2 & 0x00FF_00FF) + UInt64(taps.3 & 0x00FF_00FF)
                        let odd =
                            UInt64(taps.0 >> 8 & 0x00FF_00FF) + UInt64(taps.1 >> 8 & 0x00FF_00FF)
                            + UInt64(taps.2 >> 8 & 0x00FF_00FF) + UInt64(taps.3 >> 8 & 0x00FF_00FF)
                        // Each 16-bit lane holds a sum ≤ 1020; / 4 rounds to nearest, halves to
                        // even: rounding halves up made every level an eighth of a code value
                        // brighter on average than the one below it, which a large blur painted
                        // from a deep level (`GaussianBlur.paintedInput`) shows.
                        @inline(__always) func mean(_ sum: UInt64) -> UInt64 {
                            ((sum + 0x0001_0001 + (sum >> 2 & 0x0001_0001)) >> 2) & 0x00FF_00FF
                        }
                        let evenMean = mean(even), oddMean = mean(odd)
                        halved[y * w + x] = UInt32(evenMean) | UInt32(oddMean) << 8
                    }
                }
            }
            count = w * h
        }
        return Level(width: w, height: h, packed: texels)
    }
}
