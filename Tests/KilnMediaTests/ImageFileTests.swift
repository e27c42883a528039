import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

final class ImageFileTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        MediaLibraries.setLogLevel(.quiet)
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
        MediaLibraries.setLogLevel(.error)
    }

    // MARK: Decoding

    func testPNGRoundTripIsExact() throws {
        let width = 37, height = 23
        var random = SplitMix(state: 11)
        let rgba = random.bytes(width * height * 4)
        let url = try writePNG(rgba, width: width, height: height, name: "random.png")

        XCTAssertTrue(try ImageFile.probe(url) == (.png, width, height))
        let image = try ImageFile.decode(url)
        XCTAssertEqual(image.width, width)
        XCTAssertEqual(image.height, height)
        XCTAssertFalse(image.premultiplied)
        XCTAssertEqual(image.rgba, rgba)
    }

    func testFormatComesFromContentNotExtension() throws {
        let url = try writePNG([10, 20, 30, 40], width: 1, height: 1, name: "actually-a-png.jpg")
        XCTAssertEqual(try ImageFile.probe(url).format, .png)
        XCTAssertEqual(try ImageFile.decode(url).rgba, [10, 20, 30, 40])
    }

    func testNameThatLooksLikeAProtocolIsAPlainFile() throws {
        let url = try writePNG([1, 2, 3, 4], width: 1, height: 1, name: "concat:frame%d.png")
        XCTAssertEqual(try ImageFile.decode(url).rgba, [1, 2, 3, 4])
    }

    /// Hand-built PNGs in the layouts FFmpeg's PNG decoder does not return as RGBA: palette with
    /// tRNS, 1-bit grey, grey + alpha, and 16-bit grey, RGB and RGBA, which narrow to 8 bits as
    /// v × 255 / 65535 rounded (so 0x8080 is exactly 128, 0x0080 rounds down, 0x0081 up).
    func testPNGPixelLayoutsDecodeToRGBA() throws {
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255]
        let cases: [(name: String, png: [UInt8], expected: [UInt8])] = [
            (
                "palette + tRNS",
                HandMadePNG.make(
                    width: 3, height: 1, bitDepth: 8, colorType: 3, rows: [[0, 1, 2]], palette: palette,
                    transparency: [255, 128]),
                [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 255]
            ),
            (
                "1-bit grey",
                HandMadePNG.make(width: 4, height: 1, bitDepth: 1, colorType: 0, rows: [[0b1010_0000]]),
                [255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255]
            ),
            (
                "8-bit grey + alpha",
                HandMadePNG.make(width: 2, height: 1, bitDepth: 8, colorType: 4, rows: [[90, 200, 17, 3]]),
                [90, 90, 90, 200, 17, 17, 17, 3]
            ),
            (
                "16-bit grey",
                HandMadePNG.make(
                    width: 4, height: 1, bitDepth: 16, colorType: 0,
                    rows: [[0x80, 0x80, 0xFF, 0xFF, 0x00, 0x80, 0x00, 0x81]]),
                [128, 128, 128, 255, 255, 255, 255, 255, 0, 0, 0, 255, 1, 1, 1, 255]
            ),
            (
                "16-bit grey + alpha",
                HandMadePNG.make(
                    width: 1, height: 1, bitDepth: 16, colorType: 4, rows: [[0x12, 0x34, 0x80, 0x80]]),
                [18, 18, 18, 128]
            ),
            (
                "16-bit RGB",
                HandMadePNG.make(
                    width: 1, height: 1, bitDepth: 16, colorType: 2,
                    rows: [[0xC8, 0xC8, 0x3C, 0x3C, 0x1E, 0x1E]]),
                [200, 60, 30, 255]
            ),
            (
                "16-bit RGBA",
                HandMadePNG.make(
                    width: 2, height: 1, bitDepth: 16, colorType: 6,
                    rows: [
                        [0xC8, 0xC8, 0x3C, 0x3C, 0x1E, 0x1E, 0x80, 0x80, 0, 0, 0xFF, 0xFF, 0, 0, 0x40, 0x40]
                    ]),
                [200, 60, 30, 128, 0, 255, 0, 64]
            ),
        ]
        for (index, testCase) in cases.enumerated() {
            let url = directory.url.appendingPathComponent("layout-\(index).png")
            try Data(testCase.png).write(to: url)
            XCTAssertEqual(try ImageFile.decode(url).rgba, testCase.expected, testCase.name)
        }
    }

    /// JPEG stores full-range BT.601 YUV: read as limited range, these colours would be off by 10+.
    func testJPEGFlatPatchesKeepTheirColor() throws {
        for chroma in ["yuvj420p", "yuvj444p"] {
            let url = try ffmpegImage(
                from: patches, name: "patches-\(chroma).jpg", ["-pix_fmt", chroma, "-q:v", "2"])
            XCTAssertTrue(try ImageFile.probe(url) == (.jpeg, patches.width, patches.height))
            try assertPatches(ImageFile.decode(url), tolerance: 3, chroma)
        }
    }

    func testGreyAndOddSizedJPEGs() throws {
        let grey = try ffmpegImage(
            from: FlatImage(width: 24, height: 16, rgba: [90, 90, 90, 255]), name: "grey.jpg",
            ["-pix_fmt", "gray", "-q:v", "2"])
        assertFlat(try ImageFile.decode(grey), [90, 90, 90, 255], tolerance: 2, "grey JPEG")

        // 37x23 is not a whole number of 16x16 macroblocks: the decoder's coded size is larger than
        // the picture, and max_pixels must still let it through.
        let odd = try ffmpegImage(
            from: FlatImage(width: 37, height: 23, rgba: [40, 120, 220, 255]), name: "odd.jpg", ["-q:v", "2"])
        let image = try ImageFile.decode(odd)
        XCTAssertEqual(image.width, 37)
        XCTAssertEqual(image.height, 23)
        assertFlat(image, [40, 120, 220, 255], tolerance: 3, "odd-sized JPEG")
    }

    /// EXIF and ICC data sit in APPn segments before the frame header; the probe must seek over
    /// them (the segment here even contains an embedded SOI, as EXIF thumbnails do).
    func testJPEGWithLargeApplicationSegment() throws {
        let plain = try ffmpegImage(
            from: FlatImage(width: 32, height: 16, rgba: [200, 60, 30, 255]), name: "plain.jpg",
            ["-q:v", "2"])
        var bytes = [UInt8](try Data(contentsOf: plain))
        var payload = [UInt8](repeating: 0x41, count: 60_000)
        payload.replaceSubrange(100..<104, with: [0xFF, 0xD8, 0xFF, 0xC0])
        let length = payload.count + 2
        bytes.insert(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload, at: 2)
        let url = directory.url.appendingPathComponent("exif.jpg")
        try Data(bytes).write(to: url)

        XCTAssertTrue(try ImageFile.probe(url) == (.jpeg, 32, 16))
        assertFlat(try ImageFile.decode(url), [200, 60, 30, 255], tolerance: 3, "JPEG with APP1")
    }

    func testLosslessWebPIsExactIncludingAlpha() throws {
        let width = 16, height = 8
        var random = SplitMix(state: 5)
        let rgba = random.bytes(width * height * 4)
        let source = try writePNG(rgba, width: width, height: height, name: "lossless-source.png")
        let url = try ffmpeg(source, name: "lossless.webp", ["-c:v", "libwebp", "-lossless", "1"])
        XCTAssertEqual(try firstWebPChunk(url), "VP8L")
        XCTAssertTrue(try ImageFile.probe(url) == (.webp, width, height))

        let image = try ImageFile.decode(url)
        // libwebp may drop the colour of fully transparent pixels; everything else is lossless.
        for index in 0..<(width * height) where rgba[index * 4 + 3] != 0 {
            XCTAssertEqual(image.rgba[(index * 4)..<(index * 4 + 4)], rgba[(index * 4)..<(index * 4 + 4)])
        }
    }

    /// Lossy WebP is limited-range BT.601 YUV; with alpha it is a VP8X file with an ALPH chunk.
    func testLossyWebPFlatPatchesKeepTheirColor() throws {
        let opaque = try ffmpegImage(
            from: patches, name: "lossy.webp", ["-c:v", "libwebp", "-quality", "100"])
        XCTAssertEqual(try firstWebPChunk(opaque), "VP8 ")
        XCTAssertTrue(try ImageFile.probe(opaque) == (.webp, patches.width, patches.height))
        try assertPatches(ImageFile.decode(opaque), tolerance: 3, "lossy WebP")

        let translucent = FlatImage(width: 32, height: 16, rgba: [40, 120, 220, 128])
        let alpha = try ffmpegImage(
            from: translucent, name: "lossy-alpha.webp", ["-c:v", "libwebp", "-quality", "100"])
        XCTAssertEqual(try firstWebPChunk(alpha), "VP8X")
        XCTAssertTrue(try ImageFile.probe(alpha) == (.webp, 32, 16))
        assertFlat(try ImageFile.decode(alpha), [40, 120, 220, 128], tolerance: 3, "lossy WebP with alpha")
    }

    // MARK: Resizing

    func testCheckerboardShrinksToGreyWithoutAliasing() throws {
        let size = 256
        var rgba = [UInt8](repeating: 255, count: size * size * 4)
        for y in 0..<size {
            for x in 0..<size where (x + y) % 2 == 1 {
                rgba.replaceSubrange(((y * size + x) * 4)..<((y * size + x) * 4 + 3), with: [0, 0, 0])
            }
        }
        let url = try writePNG(rgba, width: size, height: size, name: "checker.png")
        let image = try ImageFile.decode(url, resizedTo: (32, 32))
        XCTAssertEqual(image.width, 32)
        XCTAssertEqual(image.height, 32)
        XCTAssertTrue(image.premultiplied)
        for pixel in 0..<(32 * 32) {
            let value = image.rgba[(pixel * 4)..<(pixel * 4 + 4)]
            XCTAssertTrue(value.prefix(3).allSatisfy { abs(Int($0) - 128) <= 8 }, "pixel \(pixel): \(value)")
            XCTAssertEqual(value.last, 255)
        }
    }

    /// Half-transparent red beside fully transparent green: resampling straight colour would pull the
    /// invisible green into the red's edge; premultiplied resampling cannot.
    func testTransparentColorDoesNotBleed() throws {
        let width = 64, height = 64
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let pixel: [UInt8] = x < width / 2 ? [255, 0, 0, 128] : [0, 255, 0, 0]
                rgba.replaceSubrange(((y * width + x) * 4)..<((y * width + x) * 4 + 4), with: pixel)
            }
        }
        let url = try writePNG(rgba, width: width, height: height, name: "red-over-green.png")
        for size in [(width: 16, height: 16), (width: 40, height: 24), (width: 100, height: 100)] {
            let image = try ImageFile.decode(url, resizedTo: size)
            XCTAssertTrue(image.premultiplied)
            for pixel in 0..<(size.width * size.height) {
                let value = Array(image.rgba[(pixel * 4)..<(pixel * 4 + 4)])
                XCTAssertEqual(value[1], 0, "green at pixel \(pixel) of \(size): \(value)")
                XCTAssertLessThanOrEqual(value[0], value[3], "colour above alpha at pixel \(pixel): \(value)")
            }
            // Well inside the red half the premultiplied value is exact.
            let inside = (size.height / 2 * size.width + size.width / 8) * 4
            XCTAssertEqual(Array(image.rgba[inside..<(inside + 4)]), [128, 0, 0, 128], "\(size)")
        }
    }

    /// Includes sizes far below swscale's vector width: its row loops store whole vectors past the
    /// last pixel, which once corrupted the heap for a 5x3 destination.
    func testFlatColorSurvivesResizeExactly() throws {
        let color: [UInt8] = [37, 150, 211, 255]
        for source in [(width: 50, height: 30), (width: 1, height: 1), (width: 3, height: 1)] {
            let url = try writePNG(
                [UInt8]((0..<(source.width * source.height)).flatMap { _ in color }), width: source.width,
                height: source.height, name: "flat-\(source.width)x\(source.height).png")
            for size in [
                (width: 7, height: 5), (width: 5, height: 3), (width: 1, height: 1), (width: 1, height: 7),
            ]
                + [(width: 50, height: 30), (width: 333, height: 91)]
            {
                let image = try ImageFile.decode(url, resizedTo: size)
                XCTAssertEqual(image.rgba.count, size.width * size.height * 4)
                assertFlat(image, color, tolerance: 0, "\(source) -> \(size)")
            }
        }
    }

    func testDecodeAndResizeAreDeterministic() throws {
        let jpeg = try ffmpegImage(from: patches, name: "determinism.jpg", ["-q:v", "5"])
        var random = SplitMix(state: 99)
        let png = try writePNG(random.bytes(61 * 47 * 4), width: 61, height: 47, name: "determinism.png")
        for url in [jpeg, png] {
            for size: (width: Int, height: Int)? in [nil, (19, 13), (150, 90)] {
                let first = try ImageFile.decode(url, resizedTo: size)
                let second = try ImageFile.decode(url, resizedTo: size)
                XCTAssertEqual(
                    first.rgba, second.rgba, "\(url.lastPathComponent) \(String(describing: size))")
            }
        }
    }

    // MARK: Refusals

    func testHugePNGHeaderIsRefusedBeforeDecoding() throws {
        let url = directory.url.appendingPathComponent("huge.png")
        var bytes = HandMadePNG.signature + HandMadePNG.chunk("IHDR", HandMadePNG.ihdr(20_000, 20_000, 8, 6))
        var random = SplitMix(state: 3)
        bytes += random.bytes(4096)
        try Data(bytes).write(to: url)

        let expected = ImageFileError.tooLarge(path: url.path, width: 20_000, height: 20_000, limit: 16_384)
        XCTAssertThrowsError(try ImageFile.probe(url)) { XCTAssertEqual($0 as? ImageFileError, expected) }
        XCTAssertThrowsError(try ImageFile.decode(url)) { XCTAssertEqual($0 as? ImageFileError, expected) }
        XCTAssertThrowsError(try ImageFile.decode(url, resizedTo: (10, 10))) {
            XCTAssertEqual($0 as? ImageFileError, expected)
        }
        XCTAssertTrue(expected.description.contains(url.path))
        XCTAssertTrue(expected.description.contains("16384"))
    }

    /// 16384 on a side is accepted, but FFmpeg cannot allocate 16384x16200 in one frame; the probe
    /// says so instead of a decoder failing with EINVAL.
    func testSizeLimitBoundaries() throws {
        let wide = try writePNG(
            [UInt8]((0..<(16_384 * 2)).flatMap { _ in [9, 8, 7, 255] }), width: 16_384, height: 2,
            name: "wide.png")
        XCTAssertTrue(try ImageFile.probe(wide) == (.png, 16_384, 2))
        assertFlat(try ImageFile.decode(wide), [9, 8, 7, 255], tolerance: 0, "16384x2")

        let url = directory.url.appendingPathComponent("area.png")
        try Data(HandMadePNG.signature + HandMadePNG.chunk("IHDR", HandMadePNG.ihdr(16_384, 16_200, 8, 6)))
            .write(to: url)
        XCTAssertThrowsError(try ImageFile.probe(url)) {
            XCTAssertEqual(
                $0 as? ImageFileError, .tooLarge(path: url.path, width: 16_384, height: 16_200, limit: 16_384)
            )
            XCTAssertTrue("\($0)".contains("FFmpeg"), "\($0)")
        }
    }

    func testTruncatedFilesAreCorrupt() throws {
        var random = SplitMix(state: 8)
        let png = try writePNG(random.bytes(64 * 64 * 4), width: 64, height: 64, name: "full.png")
        let jpeg = try ffmpeg(
            png, name: "full.jpg", ["-q:v", "2"])
        let webp = try ffmpeg(png, name: "full.webp", ["-c:v", "libwebp", "-quality", "90"])
        for (source, keep) in [(png, 100), (jpeg, 1000), (webp, 200)] {
            let bytes = try Data(contentsOf: source)
            XCTAssertGreaterThan(bytes.count, keep * 2, source.lastPathComponent)
            let url = directory.url.appendingPathComponent("truncated-" + source.lastPathComponent)
            try bytes.prefix(keep).write(to: url)
            // The header survives, so probing still works; decoding does not.
            XCTAssertEqual(try ImageFile.probe(url).width, 64)
            XCTAssertThrowsError(try ImageFile.decode(url), source.lastPathComponent) {
                guard case .corrupt(let path, _) = $0 as? ImageFileError else {
                    return XCTFail("expected .corrupt, got \($0)")
                }
                XCTAssertEqual(path, url.path)
            }
        }
    }

    func testDamagedHeadersAreCorrupt() throws {
        var badChecksum = HandMadePNG.make(
            width: 2, height: 2, bitDepth: 8, colorType: 0, rows: [[0, 0], [0, 0]])
        badChecksum[20] ^= 0x01
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("bad IHDR checksum", badChecksum),
            ("PNG signature only", HandMadePNG.signature),
            ("JPEG without frame header", [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]),
            ("JPEG cut inside a segment", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A]),
            ("WebP with unknown chunk", Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPABCD\u{0}\u{0}\u{0}\u{0}".utf8)),
        ]
        for (name, bytes) in cases {
            let url = directory.url.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            XCTAssertThrowsError(try ImageFile.probe(url), name) {
                guard case .corrupt = $0 as? ImageFileError else { return XCTFail("\(name): got \($0)") }
            }
        }
    }

    func testOtherContentIsUnsupported() throws {
        // An animated WebP: VP8X with the animation flag (FFmpeg 5.1 cannot decode these).
        let animated =
            Array("RIFF\u{1E}\u{0}\u{0}\u{0}WEBPVP8X\u{A}\u{0}\u{0}\u{0}".utf8) + [
                0x02, 0, 0, 0, 9, 0, 0, 9, 0, 0,
            ]
        let cases: [(String, [UInt8])] = [
            ("notes.png", Array("just some text, not an image\n".utf8)),
            ("sound.webp", Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)),
            ("animated.webp", animated),
        ]
        for (name, bytes) in cases {
            let url = directory.url.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            for attempt in [{ _ = try ImageFile.probe(url) }, { _ = try ImageFile.decode(url) }] {
                XCTAssertThrowsError(try attempt(), name) {
                    XCTAssertEqual($0 as? ImageFileError, .unsupportedFormat(path: url.path))
                }
            }
        }
        XCTAssertEqual(
            ImageFileError.unsupportedFormat(path: "/a/b.png").description,
            "/a/b.png is not a PNG, JPEG or still WebP image")
    }

    func testMissingFilesAndDirectoriesAreUnreadable() throws {
        let missing = directory.url.appendingPathComponent("missing.png")
        XCTAssertThrowsError(try ImageFile.decode(missing)) {
            XCTAssertEqual($0 as? ImageFileError, .unreadable(path: missing.path, reason: "no such file"))
            XCTAssertEqual("\($0)", "cannot read image \(missing.path): no such file")
        }
        XCTAssertThrowsError(try ImageFile.probe(directory.url)) {
            guard case .unreadable(let path, let reason) = $0 as? ImageFileError else {
                return XCTFail("got \($0)")
            }
            XCTAssertEqual(path, directory.url.path)
            XCTAssertEqual(reason, "is a directory")
        }
    }

    // MARK: Helpers

    /// Four flat 16x16 patches (JPEG blocks and WebP macroblocks hold one colour each).
    private let patches = PatchImage(colors: [
        [200, 60, 30], [40, 120, 220], [250, 240, 10], [20, 20, 20],
    ])

    private func assertPatches(_ image: DecodedImage, tolerance: Int, _ label: String) {
        XCTAssertEqual(image.width, patches.width, label)
        XCTAssertEqual(image.height, patches.height, label)
        for (index, color) in patches.colors.enumerated() {
            // Centre 8x8 of each patch, away from the chroma filter's reach across patch edges.
            for y in 4..<12 {
                for x in (index * 16 + 4)..<(index * 16 + 12) {
                    let pixel = image.rgba[((y * image.width + x) * 4)..<((y * image.width + x) * 4 + 4)]
                    let worst = zip(pixel, color + [255]).map { abs(Int($0) - Int($1)) }.max()!
                    XCTAssertLessThanOrEqual(
                        worst, tolerance, "\(label) patch \(index) at \(x),\(y): \(pixel)")
                }
            }
        }
    }

    private func assertFlat(_ image: DecodedImage, _ color: [UInt8], tolerance: Int, _ label: String) {
        var worst = 0
        for pixel in 0..<(image.width * image.height) {
            for channel in 0..<4 {
                worst = max(worst, abs(Int(image.rgba[pixel * 4 + channel]) - Int(color[channel])))
            }
        }
        XCTAssertLessThanOrEqual(worst, tolerance, "\(label): off by \(worst)")
    }

    private func writePNG(_ rgba: [UInt8], width: Int, height: Int, name: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try Data(PNGCodec.encode(rgba: rgba, width: width, height: height, stride: width * 4)).write(to: url)
        return url
    }

    private func ffmpegImage(from image: some TestImage, name: String, _ arguments: [String]) throws -> URL {
        let source = try writePNG(image.rgba, width: image.width, height: image.height, name: name + ".png")
        return try ffmpeg(source, name: name, arguments)
    }

    /// Encodes with the ffmpeg CLI (a test dependency; the product never runs it).
    private func ffmpeg(_ source: URL, name: String, _ arguments: [String]) throws -> URL {
        let executable = "/usr/bin/ffmpeg"
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw XCTSkip("\(executable) not installed (scripts/install-deps.sh --test)")
        }
        let output = directory.url.appendingPathComponent(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            ["-v", "error", "-y", "-i", source.path, "-frames:v", "1"] + arguments + [output.path]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "ffmpeg \(arguments)")
        return output
    }

    private func firstWebPChunk(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url)[12..<16], as: UTF8.self)
    }
}

private protocol TestImage {
    var width: Int { get }
    var height: Int { get }
    var rgba: [UInt8] { get }
}

private struct FlatImage: TestImage {
    let width: Int
    let height: Int
    let color: [UInt8]

    init(width: Int, height: Int, rgba color: [UInt8]) {
        self.width = width
        self.height = height
        self.color = color
    }

    var rgba: [UInt8] { (0..<(width * height)).flatMap { _ in color } }
}

/// Opaque 16x16 colour patches side by side.
private struct PatchImage: TestImage {
    let colors: [[UInt8]]
    var width: Int { colors.count * 16 }
    let height = 16
    var rgba: [UInt8] {
        (0..<height).flatMap { _ in (0..<width).flatMap { colors[$0 / 16] + [255] } }
    }
}

/// Minimal PNG writer for layouts PNGCodec does not produce: zlib stored (uncompressed) blocks,
/// filter type 0 on every row.
private enum HandMadePNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func make(
        width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, rows: [[UInt8]], palette: [UInt8]? = nil,
        transparency: [UInt8]? = nil
    ) -> [UInt8] {
        var png = signature + chunk("IHDR", ihdr(width, height, bitDepth, colorType))
        if let palette { png += chunk("PLTE", palette) }
        if let transparency { png += chunk("tRNS", transparency) }
        let raw: [UInt8] = rows.flatMap { [0] + $0 }
        var zlib: [UInt8] = [0x78, 0x01, 0x01]
        zlib += le16(raw.count) + le16(~raw.count & 0xFFFF) + raw
        var a = 1, b = 0
        for byte in raw {
            a = (a + Int(byte)) % 65521
            b = (b + a) % 65521
        }
        zlib += be32(b << 16 | a)
        return png + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    static func ihdr(_ width: Int, _ height: Int, _ bitDepth: UInt8, _ colorType: UInt8) -> [UInt8] {
        be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(crc32(typed))
    }

    private static func crc32(_ bytes: [UInt8]) -> Int {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return Int(crc ^ 0xFFFF_FFFF)
    }

    private static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
}
