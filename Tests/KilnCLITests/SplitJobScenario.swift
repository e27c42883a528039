import Foundation
import KilnTestSupport
import XCTest

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
