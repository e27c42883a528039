import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene
import KilnTestSupport
import XCTest

/// Frames with odd sides: every format but H.264 and HEVC (whose 4:2:0 colour comes in 2×2
/// blocks) writes them, and each decodes back at its exact size with the rendered colours up to
/// the last column and row, where the rounded-up colour planes of 4:2:0 end.
final class OddSizeExportTests: ScratchDirectoryTestCase {
    static let frames = 6

    func job(format: String, path: String, width: Int = 17, height: Int = 17) throws -> Job {
        try LayerRegistry.decode(
            bytes: Array(
                """
                {"kiln": 1,
                 "output": {"path": "\(path)", "format": "\(format)", "width": \(width), "height": \(height),
                            "fps": 30, "duration": {"frames": \(Self.frames)}},
                 "layers": [
                   {"type": "shape", "shape": "rect", "size": [\(width), \(height)],
                    "position": [\(Double(width) / 2), \(Double(height) / 2)],
                    "gradient": [{"keyframes": [{"t": 0, "v": "#e04020"}, {"t": 0.2, "v": "#40c060"}]}, "#f0e0a0",
                                 "#3060e0"],
                    "gradientStart": [0, 0.2], "gradientEnd": [1, 0.8]}]}
                """.utf8), file: "odd.json", baseDirectory: directory)
    }

    func reference(_ job: Job) -> [RGBA8Frame] {
        let renderer = SceneRenderer(job: job, canvas: Canvas(output: job.output), threads: 2)
        return (0..<job.output.frameCount).map { n in
            let frame = RGBA8Frame(width: job.output.width, height: job.output.height)
            renderer.render(at: job.output.time(ofFrame: n), yuv: nil, rgba: frame, straightAlpha: true)
            return frame
        }
    }

    /// The mean per-channel difference over the whole frame, and over its last column and row.
    func errors(_ decoded: DecodedRGBAFrame, _ expected: RGBA8Frame) -> (whole: Double, edge: Double) {
        var whole = 0.0, edge = 0.0, edgeCount = 0.0
        for y in 0..<expected.height {
            for x in 0..<expected.width {
                let g = decoded.pixel(x: x, y: y), e = expected.pixel(x: x, y: y)
                let d = (0..<3).map { abs(Double(g[$0]) - Double(e[$0])) }.reduce(0, +) / 3
                whole += d
                if x == expected.width - 1 || y == expected.height - 1 {
                    edge += d
                    edgeCount += 1
                }
            }
        }
        return (whole / Double(expected.width * expected.height), edge / edgeCount)
    }

    func export(_ job: Job) throws -> URL {
        let output = try VideoExport(job: job, threads: 2).run().output
        XCTAssertEqual(try contents().filter { $0.hasPrefix(".") }, [], "a temporary file was left behind")
        return output
    }

    func assertDecodesBack(
        format: String, path: String, codec: String, pixelFormat: String, tolerance: Double,
        width: Int = 17, height: Int = 17, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let job = try job(format: format, path: path, width: width, height: height)
        let output = try export(job)
        let (info, frames) = try VideoDecodeBack.decodeRGBA(path: output.path)
        XCTAssertEqual(info.codecName, codec, file: file, line: line)
        XCTAssertEqual(info.pixelFormat, pixelFormat, file: file, line: line)
        XCTAssertEqual([info.width, info.height], [width, height], file: file, line: line)
        XCTAssertEqual(info.decodedFrameCount, Self.frames, file: file, line: line)
        XCTAssertEqual(info.decodeErrors, 0, file: file, line: line)
        if format != "gif" {
            XCTAssertEqual(
                [info.colorPrimaries, info.colorTransfer, info.colorSpace], ["bt709", "bt709", "bt709"],
                file: file, line: line)
        }
        let expected = reference(job)
        XCTAssertEqual(frames.count, Self.frames, file: file, line: line)
        for frame in frames {
            let error = errors(frame, expected[frame.index])
            XCTAssertLessThan(
                error.whole, tolerance, "\(format) frame \(frame.index)", file: file, line: line)
            XCTAssertLessThan(
                error.edge, tolerance * 1.5, "\(format) frame \(frame.index): last column and row",
                file: file, line: line)
        }
    }

    func testVP9WritesOddSides() throws {
        try assertDecodesBack(
            format: "vp9", path: "odd.webm", codec: "vp9", pixelFormat: "yuv420p", tolerance: 6)
        try assertDecodesBack(
            format: "vp9", path: "wide.webm", codec: "vp9", pixelFormat: "yuv420p", tolerance: 6, width: 33,
            height: 18)
    }

    func testProRes4444WritesOddSides() throws {
        try assertDecodesBack(
            format: "prores4444", path: "odd.mov", codec: "prores", pixelFormat: "yuva444p12le", tolerance: 2)
    }

    func testGIFWritesOddSides() throws {
        try assertDecodesBack(format: "gif", path: "odd.gif", codec: "gif", pixelFormat: "bgra", tolerance: 4)
    }

    func testWebPWritesOddSides() throws {
        let job = try job(format: "webp", path: "odd.webp")
        let animation = try WebPAnimationDecodeBack.decode(path: try export(job).path)
        XCTAssertEqual([animation.width, animation.height], [17, 17])
        XCTAssertEqual(animation.frames.count, Self.frames)
        let expected = reference(job)
        for frame in animation.frames {
            let error = errors(frame, expected[frame.index])
            XCTAssertLessThan(error.whole, 5, "frame \(frame.index)")
            XCTAssertLessThan(error.edge, 7.5, "frame \(frame.index): last column and row")
        }
    }

    func testPNGSequenceHoldsOddFramesExactly() throws {
        let job = try job(format: "png-sequence", path: "frames/", width: 17, height: 31)
        let output = try export(job)
        let expected = reference(job)
        for n in 0..<Self.frames {
            let name = String(format: "frame_%05d.png", n + 1)
            let image = try PNGCodec.decode(
                [UInt8](try Data(contentsOf: output.appendingPathComponent(name))))
            XCTAssertEqual([image.width, image.height], [17, 31])
            XCTAssertEqual(image.rgba, expected[n].byteArray, name)
        }
    }

    /// H.264 and HEVC refuse odd sides at validation, naming the key and the formats that take them.
    func testH264AndHEVCRefuseOddSidesNamingTheKey() throws {
        for format in ["h264", "hevc"] {
            XCTAssertThrowsError(try job(format: format, path: "odd.mp4", width: 17, height: 18)) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("output.width"), text)
                XCTAssertTrue(text.contains("must be even for \(format)"), text)
                XCTAssertTrue(text.contains("prores4444"), text)
                XCTAssertFalse(text.contains("output.height"), text)
            }
        }
        XCTAssertEqual(try contents(), [])
    }

    /// The same frame bytes at any thread count, odd sides included (the last band is one row).
    func testOddFramesAreTheSameBytesAtAnyThreadCount() throws {
        let job = try job(format: "vp9", path: "odd.webm", width: 35, height: 19)
        func digests(threads: Int) -> [String] {
            let renderer = SceneRenderer(job: job, canvas: Canvas(output: job.output), threads: threads)
            return (0..<Self.frames).map { n in
                let yuv = YUV420Frame(width: 35, height: 19)
                renderer.render(at: job.output.time(ofFrame: n), yuv: yuv, rgba: nil)
                return FrameHashLog.digest(of: yuv)
            }
        }
        XCTAssertEqual(digests(threads: 1), digests(threads: 3))
    }
}
