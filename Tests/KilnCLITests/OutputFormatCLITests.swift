import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// `kiln render` with the output formats: the format follows the path's extension, a PNG
/// sequence is a folder, and bad choices (a mismatched extension, an option the codec does not
/// have, audio in a format without it, segments of a format that cannot be joined) fail before
/// rendering with their exit code, the file and JSON path, and no output left behind.
final class OutputFormatCLITests: TemporaryDirectoryTestCase {
    func job(_ output: String, audio: Bool = false) throws -> String {
        try write(
            "formats.json",
            """
            {"kiln": 1, "output": {\(output), "width": 64, "height": 36, "fps": 10, "duration": 1},
             "layers": [{"type": "shape", "shape": "circle", "size": [30, 30], "position": [32, 18], "fill": "#3366cc"}]\(audio ? #", "audio": {"path": "tone.flac"}"# : "")}
            """)
    }

    func render(_ args: [String]) throws -> KilnProcess.Result {
        try KilnProcess.run(["render"] + args + ["--progress", "none"])
    }

    func testTheExtensionPicksTheFormat() throws {
        let file = try job(#""path": "anim.gif""#)
        let result = try render([file])
        XCTAssertEqual(result.status, 0, result.stderr)
        let (info, frames) = try VideoDecodeBack.decodeRGBA(
            path: directory.appendingPathComponent("anim.gif").path)
        XCTAssertEqual(info.codecName, "gif")
        XCTAssertEqual(frames.count, 10)
        XCTAssertEqual(frames[0].pixel(x: 0, y: 0)[3], 0, "outside the circle is transparent")
        XCTAssertEqual(frames[0].pixel(x: 32, y: 18), [0x33, 0x66, 0xcc, 255])
    }

    func testAPNGSequenceIsAFolderOfNumberedFrames() throws {
        let file = try job(#""path": "out/frames/""#)
        let result = try render([file])
        XCTAssertEqual(result.status, 0, result.stderr)
        let folder = directory.appendingPathComponent("out/frames")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
            (1...10).map { String(format: "frame_%05d.png", $0) })
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path),
            ["frames"])
        let image = try PNGCodec.decode(
            [UInt8](try Data(contentsOf: folder.appendingPathComponent("frame_00001.png"))))
        XCTAssertEqual([image.width, image.height], [64, 36])
        XCTAssertEqual(image.rgba[3], 0, "the corner is transparent")
    }

    /// Exit 65 with the job file, the JSON path and the reason; nothing written.
    func assertRefused(
        _ output: String, audio: Bool = false, path: String, message: String, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let job = try job(output, audio: audio)
        let before = try contents()
        let result = try render([job])
        XCTAssertEqual(result.status, 65, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains("formats.json:"), result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(path + ": " + message), result.stderr, file: file, line: line)
        XCTAssertEqual(try contents(), before, "something was written", file: file, line: line)
    }

    func testAFormatThatDoesNotMatchTheExtensionIsRefused() throws {
        try assertRefused(
            #""path": "out.mp4", "format": "vp9""#, path: "output.format",
            message: "format vp9 cannot be written to a .mp4 file (.mp4 is h264 or hevc); name the file .webm"
        )
        try assertRefused(
            #""path": "out.gif", "format": "png-sequence""#, path: "output.format",
            message:
                "format png-sequence writes a folder of PNG files, but the path out.gif names a .gif file")
    }

    func testOptionsTheEncoderDoesNotHaveAreRefused() throws {
        try assertRefused(
            #""path": "out.webm", "preset": "medium""#, path: "output.preset",
            message: "vp9 has no preset 'medium'; expected one of realtime, good, best")
        try assertRefused(
            #""path": "out.mp4", "format": "hevc", "crf": 55"#, path: "output.crf",
            message: "55 is out of range 0…51")
        try assertRefused(
            #""path": "out.gif", "crf": 20"#, path: "output.crf",
            message: "format gif has no crf (only h264, hevc and vp9 do); remove it")
        try assertRefused(
            #""path": "out.mov", "preset": "fast""#, path: "output.preset",
            message: "format prores4444 has no preset (only h264, hevc and vp9 do); remove it")
    }

    func testAudioInAFormatWithoutSoundIsRefused() throws {
        _ = try tone(seconds: 1)
        for (output, format) in [
            (#""path": "out.gif""#, "gif"), (#""path": "out.webp""#, "webp"),
            (#""path": "frames/""#, "png-sequence"),
        ] {
            try assertRefused(
                output, audio: true, path: "audio",
                message: "format \(format) cannot carry audio; remove 'audio'")
        }
        // The same soundtrack in WebM is fine (Opus).
        let result = try render([try job(#""path": "out.webm""#, audio: true)])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            try VideoDecodeBack.decode(path: directory.appendingPathComponent("out.webm").path).hasAudio)
    }

    /// `-o` must suit the job's format: a usage error (64), nothing written.
    func testAnOutputPathOfAnotherFormatIsAUsageError() throws {
        let file = try job(#""path": "out.mp4""#)
        for (output, message) in [
            ("other.webm", "-o: format h264 cannot be written to a .webm file (.webm is vp9)"),
            ("frames/", "names a folder, which only format png-sequence writes"),
        ] {
            let result = try render([
                file, "-o",
                directory.appendingPathComponent(output).path + (output.hasSuffix("/") ? "/" : ""),
            ])
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
        XCTAssertEqual(try contents(), ["formats.json"])
    }

    /// Only H.264 is rendered in segments: asking for them is a usage error; a long video of
    /// another format renders in one piece.
    func testSegmentsOfAnotherFormatAreRefused() throws {
        let file = try job(#""path": "out.gif""#)
        let result = try render([file, "--segments", "2"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("gif is rendered in one piece; only h264 output is rendered in segments"))
        XCTAssertEqual(try contents(), ["formats.json"])
    }
}
