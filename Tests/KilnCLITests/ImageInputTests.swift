import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// Image layers from the command line: a good render decoded back, and the three ways a picture
/// can be unusable, each with its exit code, the file, the JSON path and no output left behind.
final class ImageInputTests: TemporaryDirectoryTestCase {
    var photos: String { KilnProcess.repositoryRoot.appendingPathComponent("jobs/photos").path }

    func job(image path: String, frames: Int = 1, extra: String = "") throws -> String {
        try write(
            "card.json",
            """
            {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": {"frames": \(frames)}},
             "layers": [{"type": "solid", "color": "#202020"},
                        {"type": "image", "path": "\(path)", "size": [160, 120], "fit": "fill"\(extra)}]}
            """)
    }

    /// A card that twirls in over ten frames: decoded back, each frame's card area against the
    /// preview of the same frame, and the final frame's card colour against the photo itself.
    func testImageJobRendersAndDecodesBack() throws {
        let file = try job(
            image: "\(photos)/ocean.png", frames: 10,
            extra:
                #", "appear": 0, "transition": "twirl", "transitionAnimation": {"duration": 0.2, "ease": "linear"}"#
        )
        let out = directory.appendingPathComponent("card.mp4").path
        let result = try KilnProcess.run(["render", file, "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        var means: [Int: (r: Double, g: Double, b: Double)] = [:]
        let info = try VideoDecodeBack.decode(path: out) { frame in
            means[frame.index] = frame.meanRGB(x: 100, y: 50, width: 120, height: 80)
        }
        assertKilnVideo(info, width: 320, height: 180, frames: 10)
        for index in [0, 3, 9] {
            let png = directory.appendingPathComponent("f\(index).png").path
            let preview = try KilnProcess.run(["preview", file, "--frame", "\(index)", "-o", png])
            XCTAssertEqual(preview.status, 0, preview.stderr)
            let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: png))))
            var sum = (r: 0.0, g: 0.0, b: 0.0)
            for y in 50..<130 {
                for x in 100..<220 {
                    let i = (y * image.width + x) * 4
                    sum.r += Double(image.rgba[i])
                    sum.g += Double(image.rgba[i + 1])
                    sum.b += Double(image.rgba[i + 2])
                }
            }
            let n = 120.0 * 80
            let decoded = try XCTUnwrap(means[index])
            XCTAssertEqual(decoded.r, sum.r / n, accuracy: 3, "frame \(index) red")
            XCTAssertEqual(decoded.g, sum.g / n, accuracy: 3, "frame \(index) green")
            XCTAssertEqual(decoded.b, sum.b / n, accuracy: 3, "frame \(index) blue")
        }
        // Frame 0 is mid-twirl (dark background mostly), the last frame shows the whole teal card.
        XCTAssertLessThan(try XCTUnwrap(means[0]).b, try XCTUnwrap(means[9]).b - 20)
    }

    func testMissingImageIs66NamingFileAndPath() throws {
        let file = try job(image: "photos/nowhere.png")
        let out = directory.appendingPathComponent("o.mp4").path
        let result = try KilnProcess.run(["render", file, "-o", out])
        XCTAssertEqual(result.status, 66, result.stderr)
        XCTAssertTrue(result.stderr.contains("card.json:"), result.stderr)
        XCTAssertTrue(
            result.stderr.contains("layers[1].path: file not found: photos/nowhere.png"), result.stderr)
        XCTAssertEqual(try contents(), ["card.json"])
    }

    func testCorruptImageIsAClearJobError() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(photos)/ocean.png"))
        let truncated = directory.appendingPathComponent("broken.png")
        try whole.prefix(2_000).write(to: truncated)
        let file = try job(image: truncated.path)
        let result = try KilnProcess.run([
            "render", file, "-o", directory.appendingPathComponent("o.mp4").path,
        ])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("layers[1].path:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("broken.png"), result.stderr)
        XCTAssertEqual(try contents(), ["broken.png", "card.json"])

        let text = directory.appendingPathComponent("notes.png")
        try Data("just some words".utf8).write(to: text)
        let unsupported = try KilnProcess.run(["validate", try job(image: text.path)])
        XCTAssertEqual(unsupported.status, 65)
        XCTAssertTrue(unsupported.stderr.contains("notes.png"), unsupported.stderr)
    }

    /// A PNG whose header claims 20000 × 20000 pixels is refused from the header, at once,
    /// without the 1.6 GB a decoder would allocate.
    func testHugeImageIsRefusedBeforeDecoding() throws {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr: [UInt8] = Array("IHDR".utf8)
        for value in [UInt32(20_000), 20_000] {
            ihdr += [
                UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
            ]
        }
        ihdr += [8, 6, 0, 0, 0]
        png += [0, 0, 0, 13] + ihdr
        let crc = crc32(ihdr)
        png += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        png += [UInt8](repeating: 0x55, count: 64)
        let huge = directory.appendingPathComponent("huge.png")
        try Data(png).write(to: huge)
        let started = Date()
        let result = try KilnProcess.run(["validate", try job(image: huge.path)])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("layers[1].path:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("20000"), result.stderr)
        XCTAssertTrue(result.stderr.contains("16384"), result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    private func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
