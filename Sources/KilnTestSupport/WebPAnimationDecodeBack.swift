import CFFmpeg
import Foundation
import KilnMedia

/// Decode-back of an animated WebP, which FFmpeg 5.1 cannot demux: the RIFF chunks are read
/// here, each ANMF frame's bitstream (VP8 or VP8L, with its ALPH) is wrapped as a still WebP
/// and decoded by libavcodec's WebP decoder, and the frames are composited onto the canvas as
/// the WebP container specification says (offsets, alpha blending, dispose to transparent).
/// A still WebP comes back as one frame.
public enum WebPAnimationDecodeBack {
    public struct Animation: Sendable {
        public var width: Int
        public var height: Int
        public var isAnimated: Bool
        public var loopCount: Int
        /// Per frame, milliseconds.
        public var durations: [Int]
        public var frames: [DecodedRGBAFrame]
    }

    public enum Failure: Error, CustomStringConvertible {
        case malformed(String)
        case decode(MediaError)
        public var description: String {
            switch self {
            case .malformed(let why): "not a WebP file: \(why)"
            case .decode(let error): "\(error)"
            }
        }
    }

    public static func decode(path: String) throws -> Animation {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard data.count >= 12, data[0..<4] == [0x52, 0x49, 0x46, 0x46][...],
            Array(data[8..<12]) == Array("WEBP".utf8)
        else { throw Failure.malformed("no RIFF WEBP header") }
        let chunks = try Self.chunks(data, from: 12, to: data.count)
        guard let header = chunks.first(where: { $0.tag == "VP8X" }) else {
            let picture = try decodeStill(chunks.map(\.bytes).reduce([], +))
            return Animation(
                width: picture.width, height: picture.height, isAnimated: false, loopCount: 0, durations: [0],
                frames: [picture])
        }
        let h = header.payload
        let width = Int(uint24(h, 4)) + 1, height = Int(uint24(h, 7)) + 1
        guard h[0] & 0x02 != 0 else {
            let picture = try decodeStill(
                chunks.filter { ["ALPH", "VP8 ", "VP8L"].contains($0.tag) }.map(\.bytes).reduce([], +),
                width: width, height: height)
            return Animation(
                width: width, height: height, isAnimated: false, loopCount: 0, durations: [0],
                frames: [picture])
        }
        let loops =
            chunks.first { $0.tag == "ANIM" }.map { Int($0.payload[4]) | Int($0.payload[5]) << 8 } ?? 0
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var durations: [Int] = [], frames: [DecodedRGBAFrame] = []
        for frame in chunks where frame.tag == "ANMF" {
            let p = frame.payload
            let x = Int(uint24(p, 0)) * 2, y = Int(uint24(p, 3)) * 2
            let w = Int(uint24(p, 6)) + 1, fh = Int(uint24(p, 9)) + 1
            let duration = Int(uint24(p, 12))
            let blends = p[15] & 0x02 == 0, disposes = p[15] & 0x01 != 0
            let inner = try Self.chunks(p, from: 16, to: p.count)
            let picture = try decodeStill(inner.map(\.padded).reduce([], +), width: w, height: fh)
            for row in 0..<fh where y + row < height {
                for column in 0..<w where x + column < width {
                    let s = picture.pixel(x: column, y: row)
                    let d = ((y + row) * width + x + column) * 4
                    if blends {
                        let sa = Double(s[3]) / 255, da = Double(canvas[d + 3]) / 255
                        let outA = sa + da * (1 - sa)
                        for c in 0..<3 {
                            let value =
                                outA == 0
                                ? 0 : (Double(s[c]) * sa + Double(canvas[d + c]) * da * (1 - sa)) / outA
                            canvas[d + c] = UInt8(min(255, max(0, value.rounded())))
                        }
                        canvas[d + 3] = UInt8(min(255, max(0, (outA * 255).rounded())))
                    } else {
                        for c in 0..<4 { canvas[d + c] = s[c] }
                    }
                }
            }
            frames.append(DecodedRGBAFrame(index: frames.count, width: width, height: height, rgba: canvas))
            durations.append(duration)
            if disposes {
                for row in y..<min(height, y + fh) {
                    for column in x..<min(width, x + w) {
                        for c in 0..<4 { canvas[(row * width + column) * 4 + c] = 0 }
                    }
                }
            }
        }
        return Animation(
            width: width, height: height, isAnimated: true, loopCount: loops, durations: durations,
            frames: frames)
    }

    struct Chunk {
        var tag: String
        /// The whole chunk, header included (without the pad byte an odd-sized chunk is followed by).
        var bytes: [UInt8]
        var payload: [UInt8] { Array(bytes[8...]) }
        /// The chunk as written inside a file: padded to an even length, as RIFF requires.
        var padded: [UInt8] { bytes.count % 2 == 0 ? bytes : bytes + [0] }
    }

    static func chunks(_ data: [UInt8], from start: Int, to end: Int) throws -> [Chunk] {
        var chunks: [Chunk] = [], i = start
        while i + 8 <= end {
            let tag = String(decoding: data[i..<(i + 4)], as: UTF8.self)
            let size =
                Int(data[i + 4]) | Int(data[i + 5]) << 8 | Int(data[i + 6]) << 16 | Int(data[i + 7]) << 24
            guard i + 8 + size <= end else { throw Failure.malformed("chunk \(tag) runs past its container") }
            chunks.append(Chunk(tag: tag, bytes: Array(data[i..<(i + 8 + size)])))
            i += 8 + size + (size & 1)
        }
        return chunks
    }

    static func uint24(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
    }

    /// A still WebP around `body` (an optional ALPH chunk then VP8/VP8L), decoded to RGBA. With
    /// alpha, a VP8X header announces it, as the decoder needs.
    static func decodeStill(_ body: [UInt8], width: Int? = nil, height: Int? = nil) throws -> DecodedRGBAFrame
    {
        var file = Array("WEBP".utf8)
        if let width, let height, body.count >= 4, String(decoding: body[0..<4], as: UTF8.self) == "ALPH" {
            file += Array("VP8X".utf8) + le32(10) + [0x10, 0, 0, 0] + le24(width - 1) + le24(height - 1)
        }
        file += body
        let riff = Array("RIFF".utf8) + le32(file.count) + file
        do {
            return try decodeImage(riff)
        } catch {
            throw Failure.decode(error)
        }
    }

    private static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    private static func le24(_ v: Int) -> [UInt8] { (0..<3).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    private static func decodeImage(_ bytes: [UInt8]) throws(MediaError) -> DecodedRGBAFrame {
        let decoded = try PNGCodec.decodeStill(bytes, codec: AV_CODEC_ID_WEBP)
        return DecodedRGBAFrame(index: 0, width: decoded.width, height: decoded.height, rgba: decoded.rgba)
    }
}
