import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// Stills written as JPEG and WebP, decoded back with `ImageFile` (the decoder image layers use).
final class StillImageEncoderTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        MediaLibraries.setLogLevel(.quiet)
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
        MediaLibraries.setLogLevel(.error)
    }

    /// Colours a range or matrix mistake would move: the ends of the range (crushed or lifted
    /// blacks and whites), video-range 16 and 235 (which must stay themselves in a full-range
    /// file), saturated primaries and secondaries (BT.601 vs BT.709, swapped Cb/Cr), and a mid tone.
    private let patches: [[UInt8]] = [
        [0, 0, 0], [255, 255, 255], [16, 16, 16], [235, 235, 235], [128, 128, 128],
        [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0], [0, 255, 255], [255, 0, 255],
        [0x33, 0x99, 0xCC],
    ]

    /// One 16x16 patch per colour side by side (whole 8x8 blocks, so each patch codes on its own),
    /// in rows of `stride` bytes whose slack is filled with a colour that must not appear.
    private func patchImage(stride: Int? = nil) -> (rgba: [UInt8], width: Int, height: Int, stride: Int) {
        let width = 16 * patches.count, height = 16
        let stride = stride ?? width * 4
        var rgba = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            for x in 0..<(stride / 4) {
                let color = x < width ? patches[x / 16] : [250, 10, 130]
                rgba.replaceSubrange((y * stride + x * 4)..<(y * stride + x * 4 + 4), with: color + [255])
            }
        }
        return (rgba, width, height, stride)
    }

    private func encodeAndDecode(
        _ format: ImageFormat, _ rgba: [UInt8], width: Int, height: Int, stride: Int, name: String
    ) throws -> DecodedImage {
        let bytes = try StillImageEncoder.encode(
            format, rgba: rgba, width: width, height: height, stride: stride)
        let url = directory.url.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        XCTAssertTrue(
            try ImageFile.probe(url) == (format, width, height), "\(name) is \(format) \(width)x\(height)")
        return try ImageFile.decode(url)
    }

    /// Every pixel of every patch comes back within ±3 per channel, opaque, through a padded stride.
    func testJPEGKeepsColorsAcrossTheRange() throws {
        for stride in [nil, 16 * patches.count * 4 + 36] {
            let image = patchImage(stride: stride)
            let decoded = try encodeAndDecode(
                .jpeg, image.rgba, width: image.width, height: image.height, stride: image.stride,
                name: "patches-\(image.stride).jpg")
            for (index, color) in patches.enumerated() {
                var worst = 0
                for y in 0..<16 {
                    for x in (index * 16)..<(index * 16 + 16) {
                        let base = (y * decoded.width + x) * 4
                        for channel in 0..<3 {
                            worst = max(worst, abs(Int(decoded.rgba[base + channel]) - Int(color[channel])))
                        }
                        XCTAssertEqual(decoded.rgba[base + 3], 255)
                    }
                }
                XCTAssertLessThanOrEqual(worst, 3, "\(color) stride \(image.stride): off by \(worst)")
            }
        }
    }

    /// JFIF (APP0 "JFIF") and 4:4:4: three components, the two chroma ones sampled like luma.
    /// (FFmpeg writes 4:4:4 as 1x2 factors for all three; only equal factors matter.)
    func testJPEGIsJFIFWithFullResolutionChroma() throws {
        let image = patchImage()
        let jpeg = try StillImageEncoder.encode(
            .jpeg, rgba: image.rgba, width: image.width, height: image.height, stride: image.stride)
        XCTAssertEqual(Array(jpeg[0..<4]), [0xFF, 0xD8, 0xFF, 0xE0])
        XCTAssertEqual(Array(jpeg[6..<11]), Array("JFIF\0".utf8))
        // SOF0: marker, length (2), precision, height (2), width (2), component count, then
        // per component its id, sampling factors (H << 4 | V) and quantisation table.
        let sof = try XCTUnwrap(
            (0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }, "a baseline SOF0")
        XCTAssertEqual(jpeg[sof + 9], 3, "components")
        let sampling = (0..<3).map { jpeg[sof + 11 + $0 * 3] }
        XCTAssertEqual(sampling[1], sampling[0], "Cb sampled like Y")
        XCTAssertEqual(sampling[2], sampling[0], "Cr sampled like Y")
    }

    /// Lossless: random opaque pixels (any stride) come back exactly.
    func testWebPIsLossless() throws {
        let width = 37, height = 23
        var random = SplitMix(state: 18)
        for stride in [width * 4, width * 4 + 20] {
            var rgba = random.bytes(stride * height)
            for alpha in Swift.stride(from: 3, to: rgba.count, by: 4) { rgba[alpha] = 255 }
            let decoded = try encodeAndDecode(
                .webp, rgba, width: width, height: height, stride: stride, name: "random-\(stride).webp")
            let expected = (0..<height).flatMap { rgba[($0 * stride)..<($0 * stride + width * 4)] }
            XCTAssertTrue(decoded.rgba == expected, "stride \(stride): pixels differ")
        }
    }

    /// Debian 12's libavcodec has all three encoders (libwebp through libwebp7).
    func testEveryFormatHasAnEncoder() {
        for format in [ImageFormat.png, .jpeg, .webp] {
            XCTAssertNil(StillImageEncoder.missingEncoder(for: format), "\(format)")
        }
    }

    func testFormatFollowsTheExtensionInAnyCase() {
        let cases: [(String, ImageFormat?)] = [
            ("png", .png), ("PNG", .png), ("jpg", .jpeg), ("JPG", .jpeg), ("jpeg", .jpeg), ("JpEg", .jpeg),
            ("webp", .webp), ("WebP", .webp), ("gif", nil), ("", nil), ("jpe", nil), ("png ", nil),
            ("tiff", nil),
        ]
        for (fileExtension, format) in cases {
            XCTAssertEqual(ImageFormat(fileExtension: fileExtension), format, "'\(fileExtension)'")
        }
        XCTAssertEqual(ImageFormat.writableExtensionList, ".png, .jpg, .jpeg or .webp")
    }

    func testInvalidSizesThrow() {
        let pixel: [UInt8] = [1, 2, 3, 255]
        for format in [ImageFormat.png, .jpeg, .webp] {
            XCTAssertThrowsError(
                try StillImageEncoder.encode(format, rgba: pixel, width: 0, height: 1, stride: 4))
            XCTAssertThrowsError(
                try StillImageEncoder.encode(format, rgba: pixel, width: 2, height: 1, stride: 4))
        }
    }
}
