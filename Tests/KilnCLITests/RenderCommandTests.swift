import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class RenderCommandTests: TemporaryDirectoryTestCase {
    /// The issue's acceptance check: the shipped job renders to a 1080p H.264 MP4 that our decoder
    /// and ffprobe both read back with the right facts.
    func testMeshGradientJobRendersToCorrectMP4() throws {
        let out = directory.appendingPathComponent("m.mp4").path
        let result = try KilnProcess.run(["render", "jobs/mesh-gradient.json", "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try contents(), ["m.mp4"])
        // stderr is not a terminal here: no progress bar, just the closing line.
        XCTAssertFalse(result.stderr.contains("ETA"), result.stderr)

        let info = try VideoDecodeBack.decode(path: out)
        assertKilnVideo(info, width: 1920, height: 1080, frames: 180)
        XCTAssertEqual(info.frameRateNumerator, 30)
        XCTAssertEqual(info.frameRateDenominator, 1)
        XCTAssertEqual(info.containerDurationSeconds, 6, accuracy: 0.001)
        let boxes = try MP4Boxes.topLevel(path: out)
        XCTAssertLessThan(
            try XCTUnwrap(boxes.firstIndex(of: "moov")), try XCTUnwrap(boxes.firstIndex(of: "mdat")))

        guard
            let probe = try KilnProcess.tool(
                "/usr/bin/ffprobe",
                [
                    "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_streams", "-show_format",
                    out,
                ])
        else { throw XCTSkip("ffprobe is not installed") }
        XCTAssertEqual(probe.status, 0, probe.stderr)
        XCTAssertEqual(probe.stderr, "", "ffprobe reported decode errors")
        for line in [
            "codec_name=h264", "pix_fmt=yuv420p", "width=1920", "height=1080", "r_frame_rate=30/1",
            "color_range=tv", "color_space=bt709", "color_transfer=bt709", "color_primaries=bt709",
            "nb_read_frames=180",
        ] {
            XCTAssertTrue(probe.stdout.contains(line + "\n"), "ffprobe lacks \(line)")
        }
    }

    /// Missing folders of the output path are created, as the queue's workers create them (it
    /// was once exit 73 here and success there), and named on stderr.
    func testMissingOutputFoldersAreCreatedAndNamed() throws {
        let job = try write(
            "small.json",
            ##"{"kiln": 1, "output": {"width": 32, "height": 32, "fps": 10, "duration": {"frames": 2}, "preset": "ultrafast"}, "layers": [{"type": "solid", "color": "#123456"}]}"##
        )
        let out = directory.appendingPathComponent("renders/today/m.mp4").path
        let result = try KilnProcess.run(["render", job, "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "kiln: created directory \(directory.appendingPathComponent("renders/today").path)"),
            result.stderr)
        assertKilnVideo(try VideoDecodeBack.decode(path: out), width: 32, height: 32, frames: 2)
        let again = try KilnProcess.run(["render", job, "-o", out])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(again.stderr.contains("created directory"), "said only when it creates one")
        let still = directory.appendingPathComponent("stills/first.png").path
        let preview = try KilnProcess.run(["preview", job, "--frame", "0", "-o", still])
        XCTAssertEqual(preview.status, 0, preview.stderr)
        XCTAssertTrue(preview.stderr.contains("kiln: created directory"), preview.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: still))
    }

    func testAnOutputFolderThatCannotBeMadeIs73AndWritesNothing() throws {
        let job = try write(
            "small.json",
            ##"{"kiln": 1, "output": {"width": 32, "height": 32, "fps": 10, "duration": {"frames": 2}}, "layers": [{"type": "solid", "color": "#123456"}]}"##
        )
        _ = try write("blocker", "a file where a folder would go")
        let out = directory.appendingPathComponent("blocker/inside/m.mp4").path
        let result = try KilnProcess.run(["render", job, "-o", out])
        XCTAssertEqual(result.status, 73)
        XCTAssertTrue(result.stderr.contains("kiln: error: cannot create \(out)"), result.stderr)
        XCTAssertEqual(try contents(), ["blocker", "small.json"])
    }

    func testInvalidJobIs65AndWritesNothing() throws {
        let job = try write(
            "odd.json",
            #"{"kiln": 1, "output": {"width": 101, "height": 64, "fps": 30, "duration": 1}, "layers": []}"#)
        let result = try KilnProcess.run([
            "render", job, "-o", directory.appendingPathComponent("o.mp4").path,
        ])
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.stderr.contains("output.width"), result.stderr)
        XCTAssertEqual(try contents(), ["odd.json"])
    }

    func testInterruptLeavesNoFileAndExits130() throws {
        let job = try write(
            "long.json",
            """
            {"kiln": 1, "output": {"width": 1280, "height": 720, "fps": 30, "duration": 600, "preset": "medium"},
             "layers": [{"type": "meshGradient", "width": 2, "height": 2, "points": [[0,0],[1,0],[0,1],[1,1]],
                         "colors": ["#ff0000","#00ff00","#0000ff","#ffffff"]}]}
            """)
        // Whole, and split into segments (automatic at ten minutes): the segment being rendered
        // is a temp file of its own, and none has finished after five frames.
        let runs: [(Int32, Int32, [String], String)] = [
            (SIGINT, 130, ["--segments", "1"], ".long.mp4.kiln-"),
            (SIGTERM, 143, ["--segments", "1"], ".long.mp4.kiln-"),
            (SIGINT, 130, [], "..long.mp4.seg-0001-of-0020-"),
        ]
        for (sig, status, split, temp) in runs {
            let out = directory.appendingPathComponent("long.mp4").path
            let (process, stdout, _) = try KilnProcess.start(
                ["render", job, "-o", out, "--progress", "json"] + split)
            // Whatever happens below, never leave a ten-minute render running.
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            // Wait until a few frames are through, so the temp file exists and the encoder is busy.
            let reader = stdout.fileHandleForReading
            var seen = ""
            func framesDone() -> Int {
                seen.split(separator: "\n").compactMap { line in
                    (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["frame"]
                        as? Int
                }.max() ?? 0
            }
            while framesDone() < 5 {
                let chunk = reader.availableData
                guard !chunk.isEmpty else { return XCTFail("kiln exited before rendering five frames") }
                seen += String(decoding: chunk, as: UTF8.self)
            }
            XCTAssertTrue(try contents().contains { $0.hasPrefix(temp) }, "no temp file while rendering")
            kill(process.processIdentifier, sig)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, status)
            XCTAssertEqual(try contents(), ["long.json"], "signal \(sig) left files behind")
        }
    }

    /// Memory stays flat however long the video: a render 30× longer peaks at (nearly) the same
    /// resident size (each render's own peak, from wait4).
    func testPeakMemoryDoesNotGrowWithDuration() throws {
        func peakKiB(frames: Int) throws -> Int {
            let job = try write(
                "mem-\(frames).json",
                """
                {"kiln": 1, "output": {"width": 640, "height": 360, "fps": 30, "duration": {"frames": \(frames)},
                                        "preset": "ultrafast"},
                 "layers": [{"type": "meshGradient", "width": 2, "height": 2,
                             "points": [[0,0],[1,0],[0,1],{"keyframes": [{"t": 0, "v": [1,1]}, {"t": 20, "v": [0.7,0.8]}]}],
                             "colors": ["#ff0000","#00ff00","#0000ff","#ffffff"]}]}
                """)
            let (status, peak) = try KilnProcess.runMeasuringPeakMemory(
                ["render", job, "-o", directory.appendingPathComponent("mem.mp4").path])
            XCTAssertEqual(status, 0)
            return peak
        }
        let short = try peakKiB(frames: 30)
        let long = try peakKiB(frames: 900)
        XCTAssertLessThan(Double(long), Double(short) * 1.15 + 4096, "short \(short) KiB, long \(long) KiB")
    }

    /// On a terminal (a pseudo-terminal from util-linux `script`) render draws a bar with frames,
    /// fps and ETA on stderr; piped, the same command prints no bar (checked in the test above).
    func testProgressBarOnATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw XCTSkip("util-linux script is not installed")
        }
        let job = try write(
            "tty.json",
            """
            {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": {"frames": 60}},
             "layers": [{"type": "solid", "color": "#336699"}]}
            """)
        let out = directory.appendingPathComponent("tty.mp4").path
        let command = [KilnProcess.binary.path, "render", job, "-o", out].map { "'\($0)'" }.joined(
            separator: " ")
        guard let result = try KilnProcess.tool("/usr/bin/script", ["-qec", command, "/dev/null"]) else {
            throw XCTSkip("util-linux script is not installed")
        }
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertTrue(result.stdout.contains("60/60 frames"), result.stdout)
        XCTAssertTrue(result.stdout.contains("fps"), result.stdout)
        XCTAssertTrue(result.stdout.contains("ETA"), result.stdout)
        XCTAssertTrue(result.stdout.contains("100%"), result.stdout)
        XCTAssertTrue(result.stdout.contains("render "), "the stage: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains("done 60/60 frames"), result.stdout)
        XCTAssertNotNil(result.stdout.firstMatch(of: #/\d+\.\d\dx real time/#), result.stdout)
    }

    func testProgressJSONAndPreview() throws {
        let job = try write(
            "small.json",
            """
            {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 25, "duration": {"frames": 10}},
             "layers": [{"type": "solid", "color": {"keyframes": [{"t": 0, "v": "#000000"}, {"t": 0.4, "v": "#ffffff"}]}}]}
            """)
        let out = directory.appendingPathComponent("small.mp4").path
        let result = try KilnProcess.run(["render", job, "-o", out, "--progress", "json", "--threads", "1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        var lines = result.stdout.split(separator: "\n")
        // The last line says where the file is, how large and how long it took.
        let done = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try XCTUnwrap(lines.popLast()).utf8)) as? [String: Any])
        XCTAssertEqual(done["event"] as? String, "done")
        XCTAssertEqual(done["output"] as? String, out)
        XCTAssertEqual(
            done["bytes"] as? Int, try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int)
        XCTAssertEqual(done["frames"] as? Int, 10)
        XCTAssertNotNil(done["elapsed"] as? Double)
        XCTAssertGreaterThanOrEqual(
            lines.count, 10, "a progress object per frame rendered and per frame written")
        var fractions: [Double] = []
        var stages: [String] = []
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            XCTAssertEqual(object?["event"] as? String, "progress")
            XCTAssertEqual(object?["total"] as? Int, 10)
            let fps = try XCTUnwrap(object?["fps"] as? Double)
            if fps > 0 {
                // Seconds of video per second: frames per second over the video's 25.
                XCTAssertEqual(try XCTUnwrap(object?["speed"] as? Double), fps / 25, accuracy: 0.01)
            }
            fractions.append(try XCTUnwrap(object?["fraction"] as? Double))
            stages.append(try XCTUnwrap(object?["stage"] as? String))
        }
        let order = ["render", "encode", "done"]
        XCTAssertEqual(stages.first, "render")
        XCTAssertEqual(stages.last, "done")
        XCTAssertEqual(
            stages.compactMap(order.firstIndex), stages.compactMap(order.firstIndex).sorted(), "\(stages)")
        XCTAssertEqual(fractions, fractions.sorted())
        XCTAssertEqual(fractions.last, 1)
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])?["frame"]
                as? Int, 10)

        let png = directory.appendingPathComponent("f.png").path
        let preview = try KilnProcess.run(["preview", job, "--at", "0.2", "-o", png])
        XCTAssertEqual(preview.status, 0, preview.stderr)
        let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: png))))
        XCTAssertEqual(image.width, 320)
        XCTAssertEqual(image.height, 180)
        // Frame 5 of 10 at 25 fps is t = 0.2 s: halfway from black to white.
        XCTAssertEqual(Double(image.rgba[0]), 127.5, accuracy: 1.5)

        let pastEnd = try KilnProcess.run(["preview", job, "--frame", "10", "-o", png])
        XCTAssertEqual(pastEnd.status, 64)
    }
}
