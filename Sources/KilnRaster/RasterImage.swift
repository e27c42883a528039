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
            var texels = [UInt32](repeating: 0, count: (width + 1) * (height + 1))
            for y in 0...height {
                let source = min(y, height - 1) * width
                for x in 0...width { texels[y * (width + 1) + x] = packed[source + min(x, width - 1)] }
            }
            self.texels = texels
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
        var texels = [UInt32](repeating: 0, count: width * height)
        for i in 0..<(width * height) {
            // Premultiplied storage must keep colour ≤ alpha; decoders' rounding may not.
            let a = bytes[4 * i + 3]
            let r = min(bytes[4 * i], a), g = min(bytes[4 * i + 1], a), b = min(bytes[4 * i + 2], a)
            texels[i] = UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
        }
        var spans: [Range<Int>] = []
        spans.reserveCapacity(height)
        for y in 0..<height {
            let row = texels[(y * width)..<((y + 1) * width)]
            if let first = row.firstIndex(where: { $0 >> 24 != 0 }),
                let last = row.lastIndex(where: { $0 >> 24 != 0 })
            {
                spans.append((first - y * width)..<(last - y * width + 1))
            } else {
                spans.append(0..<0)
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
        for i in stride(from: 0, to: premultiplied.count, by: 4) {
            let a = UInt32(premultiplied[i + 3])
            guard a < 255 else { continue }
            for c in i..<(i + 3) {
                premultiplied[c] = UInt8((UInt32(premultiplied[c]) * a + 127) / 255)
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

    /// The next level: each texel averages the (up to) 2×2 texels it covers, rounded to nearest.
    /// Odd edges repeat their last row or column, which keeps the average unbiased at borders.
    static func halve(_ level: Level) -> Level {
        let w = (level.width + 1) / 2, h = (level.height + 1) / 2
        var texels = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            let y0 = min(2 * y, level.height - 1), y1 = min(2 * y + 1, level.height - 1)
            for x in 0..<w {
                let x0 = min(2 * x, level.width - 1), x1 = min(2 * x + 1, level.width - 1)
                let taps = [
                    level.texel(x: x0, y: y0), level.texel(x: x1, y: y0), level.texel(x: x0, y: y1),
                    level.texel(x: x1, y: y1),
                ]
                var packed: UInt32 = 0
                for shift in stride(from: 0 as UInt32, to: 32, by: 8) {
                    let sum = taps.reduce(UInt32(0)) { $0 + ($1 >> shift & 0xFF) }
                    packed |= ((sum + 2) / 4) << shift
                }
                texels[y * w + x] = packed
            }
        }
        return Level(width: w, height: h, packed: texels)
    }
}
