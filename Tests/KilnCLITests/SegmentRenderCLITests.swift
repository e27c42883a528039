import Foundation
import KilnMedia
import KilnQueue
import KilnTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Segmented renders from the command line (scale-out.md): the joined file against a single
/// render, a killed render resumed from its finished pieces, and segments shared by workers.
final class SegmentRenderCLITests: TemporaryDirectoryTestCase {
    func testASegmentedRenderWithSoundMatchesASingleRender() throws {
        _ = try tone(seconds: 5)
        let file = try write(
            "split.json",
            """
            {"kiln": 1, "output": {"width": 128, "height": 72, "fps": 25, "duration": 3, "preset": "veryfast"},
             "layers": [{"type": "solid", "color": {"keyframes": [{"t": 0, "v": "#102030"}, {"t": 3, "v": "#f0d0a0"}]}}],
             "audio": {"path": "tone.flac", "offset": 0.2}}
            """)
        let split = directory.appendingPathComponent("split.mp4").path
        let single = directory.appendingPathComponent("single.mp4").path
        let a = try KilnProcess.run([
            "render", file, "-o", split, "--segments", "4", "--frame-hashes", "\(directory.path)/split.txt",
        ])
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertTrue(a.stderr.contains("75 frames, 4 segments"), a.stderr)
        let b = try KilnProcess.run([
            "render", file, "-o", single, "--segments", "1", "--frame-hashes", "\(directory.path)/single.txt",
        ])
        XCTAssertEqual(b.status, 0, b.stderr)
        XCTAssertEqual(
            try contents(), ["single.mp4", "single.txt", "split.json", "split.mp4", "split.txt", "tone.flac"])

        let hashes = try String(contentsOfFile: "\(directory.path)/split.txt", encoding: .utf8)
        XCTAssertEqual(hashes.split(separator: "\n").count, 75)
        XCTAssertEqual(
            Set(hashes.split(separator: "\n")),
            Set(
                try String(contentsOfFile: "\(directory.path)/single.txt", encoding: .utf8).split(
                    separator: "\n")),
            "the same pixels before encoding")

        var reference: [Double] = []
        _ = try VideoDecodeBack.decode(path: single) {
            reference.append($0.meanRGB(x: 0, y: 0, width: 128, height: 72).g)
        }
        var worst = 0.0
        let info = try VideoDecodeBack.decode(path: split) { frame in
            worst = max(
                worst, abs(frame.meanRGB(x: 0, y: 0, width: 128, height: 72).g - reference[frame.index]))
        }
        assertKilnVideo(info, width: 128, height: 72, frames: 75)
        XCTAssertLessThan(worst, 1.5)
        XCTAssertEqual(info.containerDurationSeconds, 3, accuracy: 0.001)
        XCTAssertEqual(info.presentationTimestamps.count, 75)
        for (n, t) in info.presentationTimestamps.enumerated() {
            XCTAssertEqual(t, Double(n) / 25, accuracy: 1e-6)
        }
        for start in [0, 18, 37, 56] {
            XCTAssertTrue(info.keyFrameIndices.contains(start), "\(info.keyFrameIndices)")
        }
        let boxes = try MP4Boxes.topLevel(path: split)
        XCTAssertLessThan(
            try XCTUnwrap(boxes.firstIndex(of: "moov")), try XCTUnwrap(boxes.firstIndex(of: "mdat")))

        // The sound is encoded once for the whole timeline: as long as the video, and the tone
        // steady across the joins (no gap or click where segments meet).
        let reader = try AudioFileReader(path: split)
        let (left, _) = try reader.readAll()
        XCTAssertEqual(reader.decodeErrors, 0)
        XCTAssertEqual(Double(left.count), 3 * 48_000, accuracy: 1024)
        func rms(_ from: Int, _ count: Int) -> Double {
            (left[from..<(from + count)].reduce(0.0) { $0 + Double($1 * $1) } / Double(count)).squareRoot()
        }
        let steady = rms(48_000, 4800)
        XCTAssertGreaterThan(steady, 0.05)
        for join in [18, 37, 56] {
            let sample = join * 48_000 / 25
            XCTAssertEqual(
                rms(sample - 480, 960), steady, accuracy: steady * 0.05, "around the join at frame \(join)")
        }
    }

    /// kill -9 mid-render keeps the finished pieces; the same command again renders only the rest.
    func testAKilledRenderResumesFromItsFinishedSegments() throws {
        let file = try write(
            "slow.json",
            """
            {"kiln": 1, "output": {"width": 640, "height": 360, "fps": 30, "duration": {"frames": 180}, "preset": "medium"},
             "layers": [{"type": "meshGradient", "width": 2, "height": 2,
                         "points": [[0, 0], [1, 0], [0, 1], {"keyframes": [{"t": 0, "v": [1, 1]}, {"t": 6, "v": [0.2, 0.3]}]}],
                         "colors": ["#ff5a36", "#3a1c71", "#00a8cc", "#ffb347"],
                         "effects": [{"blur": 3}, {"ripple": {"amplitude": 12, "triggers": [{"at": 0.1, "origin": [300, 200]}]}}]}]}
            """)
        let out = directory.appendingPathComponent("slow.mp4").path
        func finished() throws -> [String] {
            try contents().filter { $0.hasPrefix(".slow.mp4.seg-") }
        }
        // 30 ms a frame more, so the render is still going after two segments on any machine.
        let (process, stdout, stderr) = try KilnProcess.launch(
            KilnProcess.binary, ["render", file, "-o", out, "--segments", "6", "--threads", "1"],
            cwd: directory,
            environment: ["KILN_FAULT_FRAME_DELAY": "0.03"])
        let deadline = Date().addingTimeInterval(120)
        while try finished().count < 2 && Date() < deadline && process.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertTrue(process.isRunning, "the render should still be going after two pieces")
        kill(process.processIdentifier, SIGKILL)
        _ = KilnProcess.collect(process, stdout, stderr)
        let kept = try finished()
        XCTAssertGreaterThanOrEqual(kept.count, 2)
        XCTAssertLessThan(kept.count, 6)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        // seg-0003-of-0006 → index 2.
        let keptIndices = Set(
            kept.compactMap { name in Int(name.dropFirst(".slow.mp4.seg-".count).prefix(4)).map { $0 - 1 } })

        let hashes = directory.appendingPathComponent("resumed.txt").path
        let resumed = try KilnProcess.run(
            ["render", file, "-o", out, "--segments", "6", "--frame-hashes", hashes], cwd: directory)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertTrue(
            resumed.stderr.contains("6 segments: \(kept.count) reused, \(6 - kept.count) rendered"),
            resumed.stderr)
        let rendered = try String(contentsOfFile: hashes, encoding: .utf8).split(separator: "\n").compactMap {
            Int($0.split(separator: " ")[0])
        }.sorted()
        let expected = (0..<6).filter { !keptIndices.contains($0) }.flatMap {
            Array(($0 * 30)..<($0 * 30 + 30))
        }
        XCTAssertEqual(rendered, expected, "only the unfinished segments' frames were rendered again")
        assertKilnVideo(try VideoDecodeBack.decode(path: out), width: 640, height: 360, frames: 180)
        XCTAssertEqual(
            try contents(), ["resumed.txt", "slow.json", "slow.mp4"], "pieces and temp files gone")
    }
}
