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

    /// `-o` must suit a format the job names: a usage error (64), nothing written.
    func testAnOutputPathOfAnotherFormatThanTheNamedOneIsAUsageError() throws {
        let file = try job(#""path": "out.mp4", "format": "h264""#)
        for (output, message) in [
            (
                "other.webm",
                "-o: format h264 cannot be written to a .webm file (.webm is vp9); name the file .mp4 or change "
                    + "output.format (the format is output.format's)"
            ),
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

    /// A job that names no format is written in the one `-o`'s extension names: VP9 WebM from a
    /// job whose own path is an MP4, with its size, frames and BT.709 tags.
    func testTheOutputExtensionPicksTheFormatWhenTheJobNamesNone() throws {
        let file = try job(#""path": "out.mp4""#)
        let webm = directory.appendingPathComponent("x.webm").path
        let result = try render([file, "-o", webm])
        XCTAssertEqual(result.status, 0, result.stderr)
        let info = try VideoDecodeBack.decode(path: webm)
        XCTAssertEqual(info.codecName, "vp9")
        XCTAssertEqual([info.width, info.height], [64, 36])
        XCTAssertEqual(info.decodedFrameCount, 10)
        XCTAssertEqual(
            [info.colorPrimaries, info.colorTransfer, info.colorSpace], ["bt709", "bt709", "bt709"])

        let gif = directory.appendingPathComponent("x.gif").path
        XCTAssertEqual(try render([file, "-o", gif]).status, 0)
        XCTAssertEqual(try VideoDecodeBack.decode(path: gif).codecName, "gif")
        let frames = directory.appendingPathComponent("frames").path + "/"
        XCTAssertEqual(try render([file, "-o", frames]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: frames).count, 10)
    }

    /// `--format` overrides the job's format; without `-o` the output gets its extension; an `-o`
    /// of another format and an unknown name are usage errors.
    func testTheFormatOptionOverridesTheJob() throws {
        let file = try job(#""path": "out.mp4", "format": "h264", "crf": 20, "preset": "veryfast""#)
        let result = try render([file, "--format", "webp"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("note: the job's crf and preset are for h264; webp uses its own defaults"),
            result.stderr)
        XCTAssertEqual(try contents(), ["formats.json", "out.webp"])
        XCTAssertEqual(
            try VideoDecodeBack.decode(path: directory.appendingPathComponent("out.webp").path).codecName,
            "webp")

        let mismatch = try render([
            file, "--format", "vp9", "-o", directory.appendingPathComponent("x.mp4").path,
        ])
        XCTAssertEqual(mismatch.status, 64, mismatch.stderr)
        XCTAssertTrue(
            mismatch.stderr.contains(
                "format vp9 cannot be written to a .mp4 file (.mp4 is h264 or hevc); name the file .webm or "
                    + "change --format"), mismatch.stderr)

        let unknown = try render([file, "--format", "avi"])
        XCTAssertEqual(unknown.status, 64, unknown.stderr)
        XCTAssertTrue(
            unknown.stderr.contains("h264, hevc, vp9, prores4444, gif, webp, png-sequence"), unknown.stderr)
        XCTAssertEqual(try contents(), ["formats.json", "out.webp"])
    }

    /// A 17×17 job renders as ProRes, WebP, GIF and PNG frames; H.264 (named by the job, by
    /// --format or by -o's extension) needs even sides, and says so before writing anything.
    func testOddSidesRenderInEveryFormatButH264AndHEVC() throws {
        let file = try write(
            "odd.json",
            #"""
            {"kiln": 1, "output": {"path": "odd.mov", "width": 17, "height": 17, "fps": 10, "duration": 0.5},
             "layers": [{"type": "shape", "shape": "circle", "size": [15, 15], "position": [8.5, 8.5], "fill": "#3366cc"}]}
            """#)
        for name in ["odd.mov", "odd.webm", "odd.gif", "odd.webp", "frames/"] {
            let result = try render([file, "-o", directory.path + "/" + name])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
        }
        for name in ["odd.mov", "odd.webm", "odd.gif"] {
            let info = try VideoDecodeBack.decode(path: directory.appendingPathComponent(name).path)
            XCTAssertEqual([info.width, info.height, info.decodedFrameCount], [17, 17, 5], name)
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent("frames").path
            )
            .count, 5)
        let before = try contents()
        let named = try render([file, "--format", "h264"])
        XCTAssertEqual(named.status, 64, named.stderr)
        XCTAssertTrue(
            named.stderr.contains(
                "h264 needs even sides (its 4:2:0 colour comes in 2×2 blocks), got 17x17; make them even or "
                    + "use a format that takes odd sizes: vp9, prores4444, gif, webp, png-sequence "
                    + "(the format comes from --format)"), named.stderr)
        let inferred = try render([file, "-o", directory.appendingPathComponent("odd.mp4").path])
        XCTAssertEqual(inferred.status, 64, inferred.stderr)
        XCTAssertTrue(
            inferred.stderr.contains("got 17x17")
                && inferred.stderr.contains("(the format comes from -o's extension)"),
            inferred.stderr)
        XCTAssertEqual(try contents(), before, "nothing is written for a refused format")
    }

    /// A soundtrack is left out (with a note) when `-o` picks a format without sound.
    func testAudioIsLeftOutOfAFormatWithoutSoundThatTheOutputPicks() throws {
        _ = try tone(seconds: 1)
        let file = try job(#""path": "out.mp4""#, audio: true)
        let gif = directory.appendingPathComponent("x.gif").path
        let result = try render([file, "-o", gif])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("note: gif has no sound; the job's audio is left out"), result.stderr)
        XCTAssertEqual(try VideoDecodeBack.decode(path: gif).codecName, "gif")
    }

    /// `--gif-max-bytes` keeps a GIF within its budget; a bad size, or a budget for another
    /// format, is a usage error.
    func testAGIFByteBudget() throws {
        let file = try write(
            "noise.json",
            """
            {"kiln": 1, "output": {"path": "out.mp4", "width": 160, "height": 90, "fps": 30, "duration": 2},
             "layers": [{"type": "shape", "shape": "rect", "size": [160, 90], "position": [80, 45],
                "gradient": [{"keyframes": [{"t": 0, "v": "#ff2000"}, {"t": 2, "v": "#20ff40"}]}, "#ffffff",
                             {"keyframes": [{"t": 0, "v": "#2040ff"}, {"t": 2, "v": "#ff00c0"}]}],
                "gradientStart": [0, 0.5], "gradientEnd": [1, 0.5]}]}
            """)
        let gif = directory.appendingPathComponent("x.gif").path
        let result = try render([file, "-o", gif, "--gif-max-bytes", "150k"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: gif)[.size] as? Int)
        XCTAssertLessThanOrEqual(size, 150_000)
        let info = try VideoDecodeBack.decode(path: gif)
        XCTAssertEqual(info.containerDurationSeconds, 2, accuracy: 0.02)

        let bad = try render([file, "-o", gif, "--gif-max-bytes", "lots"])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--gif-max-bytes expects a positive number of bytes"), bad.stderr)
        let other = try render([file, "--gif-max-bytes", "1M"])
        XCTAssertEqual(other.status, 64, other.stderr)
        XCTAssertTrue(
            other.stderr.contains("only gif output has a byte budget; this render is h264"), other.stderr)
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
