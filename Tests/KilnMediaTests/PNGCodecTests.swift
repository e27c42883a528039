import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

final class PNGCodecTests: XCTestCase {
    override func setUp() { MediaLibraries.setLogLevel(.quiet) }
    override func tearDown() { MediaLibraries.setLogLevel(.error) }

    func testRandomRGBARoundTripsExactly() throws {
        let width = 37, height = 23
        var random = SplitMix(state: 42)
        let rgba = random.bytes(width * height * 4)
        let png = try PNGCodec.encode(rgba: rgba, width: width, height: height, stride: width * 4)
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertTrue(containsChunk("sRGB", in: png), "expected an sRGB chunk")

        let decoded = try PNGCodec.decode(png)
        XCTAssertEqual(decoded.width, width)
        XCTAssertEqual(decoded.height, height)
        XCTAssertEqual(decoded.rgba, rgba)
    }

    func testPaddedStrideIsHonoured() throws {
        let width = 5, height = 3, stride = 32
        var random = SplitMix(state: 7)
        let padded = random.bytes(stride * height)
        let png = try PNGCodec.encode(rgba: padded, width: width, height: height, stride: stride)
        let expected = (0..<height).flatMap { padded[($0 * stride)..<($0 * stride + width * 4)] }
        XCTAssertEqual(try PNGCodec.decode(png).rgba, expected)
    }

    func testGarbageAndEmptyInputThrow() {
        var random = SplitMix(state: 1)
        XCTAssertThrowsError(try PNGCodec.decode(random.bytes(200))) { XCTAssertTrue($0 is MediaError) }
        XCTAssertThrowsError(try PNGCodec.decode([])) { XCTAssertTrue($0 is MediaError) }
        XCTAssertThrowsError(try PNGCodec.decode([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0]))
    }

    func testRGB24PNGFromFFmpegDecodesToOpaqueRGBA() throws {
        let ffmpeg = "/usr/bin/ffmpeg"
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else {
            throw XCTSkip("\(ffmpeg) not installed")
        }
        let directory = try TemporaryDirectory()
        let path = directory.path("red.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = [
            "-v", "error", "-f", "lavfi", "-i", "color=c=red:s=8x6,format=rgb24", "-frames:v", "1", path,
        ]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(
            bytes[25], 2, "expected PNG colour type 2 (RGB, no alpha) so the swscale path is exercised")
        let image = try PNGCodec.decode(bytes)
        XCTAssertEqual(image.width, 8)
        XCTAssertEqual(image.height, 6)
        XCTAssertEqual(image.rgba, [UInt8]((0..<48).flatMap { _ in [255, 0, 0, 255] }))
    }

    private func containsChunk(_ type: String, in png: [UInt8]) -> Bool {
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self) == type { return true }
            offset += 12 + length
        }
        return false
    }
}
