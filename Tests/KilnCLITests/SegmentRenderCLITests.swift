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

/// Workers sharing one split job: three of them, one killed with -9 mid-segment. The job
/// completes once, its frames equal a single render's (digests of the pixels before encoding)
/// and its decoded pictures match within what the encoder changes.
enum SplitJobScenario {
    static func run(_ test: QueueTestCase, checkDatabase: Bool) throws {
        let file = try test.writeJob("split", frames: 240, size: (640, 360), slow: true)
        let hashes = test.directory.appendingPathComponent("hashes.txt").path
        let enqueued = try test.kiln(["enqueue", file, "--segments", "6", "--json"])
        XCTAssertEqual(enqueued.status, 0, enqueued.stderr)
        XCTAssertTrue(enqueued.stdout.contains("\"segments\" : 6"), enqueued.stdout)
        let workers = try (0..<3).map {
            // 50 ms a frame more, so a segment takes seconds however fast the machine is.
            try test.startWorker(
                ["--threads", "1", "--frame-hashes", hashes], name: "w\($0)",
                environment: ["KILN_FAULT_FRAME_DELAY": "0.05"])
        }
        defer {
            for worker in workers where worker.isRunning { kill(worker.processIdentifier, SIGKILL) }
        }
        // A segment under way (progress comes with the heartbeat, so it may lag): kill its worker.
        var victim: (name: String, segment: Int)?
        try test.waitUntil(120, "a segment to be under way") {
            for job in try test.status() where job["parentID"] as? Int != nil {
                if job["state"] as? String == "running", (10...60).contains(job["progress"] as? Double ?? 0),
                    let worker = (job["attempts"] as? [[String: Any]])?.last?["worker"] as? String
                {
                    victim = (worker, job["id"] as? Int ?? 0)
                    return true
                }
            }
            return false
        }
        let (name, _) = try XCTUnwrap(victim)
        let index = try XCTUnwrap(Int(name.dropFirst()))
        kill(workers[index].processIdentifier, SIGKILL)
        workers[index].waitUntilExit()

        try test.waitUntil(240, "the job to complete") {
            try test.status().first { $0["id"] as? Int == 1 }?["state"] as? String == "completed"
        }
        for worker in workers where worker.isRunning { kill(worker.processIdentifier, SIGTERM) }
        for worker in workers { worker.waitUntilExit() }

        let jobs = try test.status()
        XCTAssertEqual(jobs.count, 7)
        XCTAssertEqual(Set(jobs.map { $0["state"] as? String }), ["completed"])
        // The killed worker's segment (whichever it held when the signal came) crashed once and
        // was completed by another worker; everything else ran once.
        var crashed: [Int] = []
        for job in jobs {
            let attempts = job["attempts"] as? [[String: Any]] ?? []
            let outcomes = attempts.map { $0["outcome"] as? String }
            if outcomes == ["crashed", "completed"] {
                crashed.append(job["id"] as? Int ?? 0)
                XCTAssertEqual(attempts.first?["worker"] as? String, name)
                XCTAssertNotNil(job["parentID"] as? Int, "a segment, not the assembly")
            } else {
                XCTAssertEqual(outcomes, ["completed"], "job \(job)")
            }
        }
        XCTAssertEqual(crashed.count, 1, "one segment was cut short by the kill")

        let reference = test.directory.appendingPathComponent("reference.mp4").path
        let referenceHashes = test.directory.appendingPathComponent("reference.txt").path
        let single = try test.kiln(
            ["render", file, "-o", reference, "--segments", "1", "--frame-hashes", referenceHashes])
        XCTAssertEqual(single.status, 0, single.stderr)
        let expected = try hashLines(referenceHashes)
        XCTAssertEqual(expected.count, 240)
        let got = try hashLines(hashes)
        XCTAssertEqual(Set(got.keys), Set(0..<240), "every frame rendered")
        for n in 0..<240 {
            XCTAssertEqual(
                got[n], [expected[n]!.first!], "frame \(n): the same pixels every time it was rendered")
        }

        // Decoded pictures against the single render's, as 4×4 block means of R, G and B: equal
        // within what the encoder changes (its GOPs differ at the joins).
        func blocks(_ frame: DecodedFrame) -> [Double] {
            (0..<16).flatMap { b -> [Double] in
                let m = frame.meanRGB(x: (b % 4) * 160, y: (b / 4) * 90, width: 160, height: 90)
                return [m.r, m.g, m.b]
            }
        }
        var pictures: [[Double]] = []
        _ = try VideoDecodeBack.decode(path: reference) { pictures.append(blocks($0)) }
        let output = test.outputs.appendingPathComponent("split.mp4").path
        var worst = 0.0
        let info = try VideoDecodeBack.decode(path: output) { frame in
            for (a, b) in zip(blocks(frame), pictures[frame.index]) { worst = max(worst, abs(a - b)) }
        }
        test.assertKilnVideo(info, width: 640, height: 360, frames: 240)
        XCTAssertEqual(pictures.count, 240)
        XCTAssertLessThan(worst, 3, "block means, 8-bit")
        XCTAssertEqual(info.presentationTimestamps.count, 240)
        for (n, t) in info.presentationTimestamps.enumerated() {
            XCTAssertEqual(t, Double(n) / 30, accuracy: 1e-6)
        }
        for start in stride(from: 0, to: 240, by: 40) { XCTAssertTrue(info.keyFrameIndices.contains(start)) }
        let boxes = try MP4Boxes.topLevel(path: output)
        XCTAssertLessThan(
            try XCTUnwrap(boxes.firstIndex(of: "moov")), try XCTUnwrap(boxes.firstIndex(of: "mdat")))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: test.outputs.path), ["split.mp4"],
            "segments and the killed worker's temp file are gone")
        if checkDatabase { try test.assertQueueSound(frames: ["split": 240]) }
    }

    /// Frame → every digest written for it (a segment rendered twice writes its frames twice).
    static func hashLines(_ path: String) throws -> [Int: Set<String>] {
        var result: [Int: Set<String>] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let n = Int(parts[0]) { result[n, default: []].insert(String(parts[1])) }
        }
        return result
    }
}

final class SegmentedQueueTests: QueueTestCase {
    /// `--segment-seconds` splits by length; `--segments` with it is a usage error.
    func testEnqueueSplitsBySegmentSeconds() throws {
        let file = try writeJob("ninety", frames: 90, size: (16, 16))
        XCTAssertEqual(try kiln(["enqueue", file, "--segments", "2", "--segment-seconds", "1"]).status, 64)
        XCTAssertEqual(try kiln(["enqueue", file, "--segment-seconds", "1"]).status, 0)
        let rows = try status()
        XCTAssertEqual(rows.count, 4, "the job and three 1 s segments")
        XCTAssertEqual(
            rows.dropFirst().compactMap { $0["frames"] as? [Int] }, [[0, 30], [30, 60], [60, 90]])
    }

    func testThreeWorkersOneKilledShareASplitJob() throws {
        try SplitJobScenario.run(self, checkDatabase: true)
    }

    /// A split job with sound gets one more task, its soundtrack, encoded by any worker while
    /// the segments render; the assembly copies it in.
    func testASplitJobWithSoundEncodesItsSoundtrackAsATask() throws {
        _ = try tone(seconds: 5)
        let file = try write(
            "voiced.json",
            """
            {"kiln": 1, "output": {"path": "out/voiced.mp4", "width": 96, "height": 64, "fps": 25, "duration": 3,
                                   "preset": "ultrafast"},
             "layers": [{"type": "solid", "color": "#336699"}], "audio": {"path": "tone.flac"}}
            """)
        XCTAssertEqual(try kiln(["enqueue", file, "--segments", "3"]).status, 0)
        let rows = try status()
        XCTAssertEqual(rows.count, 5, "the job, three segments and the soundtrack")
        XCTAssertEqual(rows.last?["frames"] as? NSNull, NSNull())
        let shown = try kiln(["status"]).stdout
        XCTAssertTrue(shown.contains("1 soundtrack"), shown)
        XCTAssertTrue(shown.contains("waiting"), shown)
        let worker = try kiln(["worker", "--drain"])
        XCTAssertEqual(worker.status, 0, worker.stderr)
        XCTAssertTrue(worker.stderr.contains("the soundtrack of job 1"), worker.stderr)
        XCTAssertEqual(Set(try states()), ["completed"])
        let output = outputs.appendingPathComponent("voiced.mp4").path
        assertKilnVideo(try VideoDecodeBack.decode(path: output), width: 96, height: 64, frames: 75)
        let reader = try AudioFileReader(path: output)
        XCTAssertEqual(Double(try reader.readAll().left.count), 3 * 48_000, accuracy: 1024)
        XCTAssertTrue(try kiln(["logs", "1"]).stdout.contains("the soundtrack completed"))
        try assertQueueSound(frames: ["voiced": 75])
    }
}

final class PostgresSegmentedQueueTests: PostgresQueueTestCase {
    func testThreeWorkersOneKilledShareASplitJob() throws {
        try SplitJobScenario.run(self, checkDatabase: false)
    }
}
