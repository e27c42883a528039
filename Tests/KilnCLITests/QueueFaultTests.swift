import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// queue.md's fault-injection tests, as real worker processes against a real database file.
/// Afterwards every accepted job has ended exactly once, every completed MP4 decodes with its
/// frame count, no temp file is left, and `PRAGMA integrity_check` is ok.
final class QueueFaultTests: QueueTestCase {
    /// A render that takes a few seconds on one thread, so a test can act in the middle of it.
    func slowJob(_ name: String = "slow") throws -> String {
        try writeJob(name, frames: 240, size: (1280, 720), slow: true)
    }

    func progress(of id: Int) throws -> Double {
        try status().first { $0["id"] as? Int == id }?["progress"] as? Double ?? 0
    }

    func attempts(of id: Int) throws -> [[String: Any]] {
        try status().first { $0["id"] as? Int == id }?["attempts"] as? [[String: Any]] ?? []
    }

    func testKillDashNineMidRenderIsReclaimedAndCompletedOnce() throws {
        XCTAssertEqual(try kiln(["enqueue", try slowJob()]).status, 0)
        let doomed = try startWorker(["--once", "--threads", "1"], name: "doomed")
        try waitUntil(60, "the render to be under way") { try progress(of: 1) > 0.1 }
        kill(doomed.processIdentifier, SIGKILL)
        doomed.waitUntilExit()
        let partial = try FileManager.default.contentsOfDirectory(atPath: outputs.path)
        XCTAssertEqual(partial.filter { !$0.hasPrefix(".") }, [], "nothing at the final path yet")
        XCTAssertEqual(partial.count, 1, "the killed worker's temp file: \(partial)")

        let rescuer = try kiln(["worker", "--drain", "--threads", "2"])
        XCTAssertEqual(rescuer.status, 0, rescuer.stderr)
        XCTAssertTrue(rescuer.stderr.contains("reclaimed 1 job"), rescuer.stderr)
        XCTAssertEqual(try attempts(of: 1).map { $0["outcome"] as? String }, ["crashed", "completed"])
        XCTAssertEqual(try attempts(of: 1).first?["error"] as? String, "worker process died")
        try assertQueueSound(frames: ["slow": 240])
    }

    func testKillBetweenRenameAndCommitRendersAnIdenticalFileOnce() throws {
        XCTAssertEqual(try kiln(["enqueue", try writeJob("quick", frames: 12)]).status, 0)
        let doomed = try startWorker(
            ["--once"], name: "doomed", environment: ["KILN_FAULT_PAUSE_AFTER_RENAME": "60"])
        let final = outputs.appendingPathComponent("quick.mp4").path
        try waitUntil(60, "the output to be renamed into place") {
            workerLog("doomed").contains("fault injection (pause after rename)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: final))
        XCTAssertEqual(try states(), ["running"], "renamed, not yet committed")
        kill(doomed.processIdentifier, SIGKILL)
        doomed.waitUntilExit()
        let first = try Data(contentsOf: URL(fileURLWithPath: final))

        XCTAssertEqual(try kiln(["worker", "--drain"]).status, 0)
        XCTAssertEqual(try attempts(of: 1).map { $0["outcome"] as? String }, ["crashed", "completed"])
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: final)), first, "deterministic: the same bytes")
        try assertQueueSound(frames: ["quick": 12])
    }

    func testFourWorkersRaceOverAHundredJobsWithoutOverlap() throws {
        var files: [String] = []
        var frames: [String: Int] = [:]
        for i in 0..<100 {
            files.append(try writeJob("j\(i)", frames: 1 + i % 3, size: (16, 16)))
            frames["j\(i)"] = 1 + i % 3
        }
        XCTAssertEqual(try kiln(["enqueue"] + files).status, 0)
        let workers = try (0..<4).map { try startWorker(["--drain", "--threads", "1"], name: "w\($0)") }
        for worker in workers { worker.waitUntilExit() }
        XCTAssertEqual(workers.map(\.terminationStatus), [0, 0, 0, 0], workerLog("w0"))
        let jobs = try status()
        XCTAssertEqual(jobs.count, 100)
        XCTAssertEqual(Set(jobs.map { $0["state"] as? String }), ["completed"])
        // One attempt each: no job was run twice, by one worker or two.
        XCTAssertEqual(jobs.map { ($0["attempts"] as? [Any])?.count }, Array(repeating: 1, count: 100))
        let byWorker = Dictionary(grouping: jobs) {
            ($0["attempts"] as? [[String: Any]])?.first?["worker"] as? String
        }
        XCTAssertGreaterThan(byWorker.count, 1, "the work was shared")
        try assertQueueSound(frames: frames)
    }

    func testAStoppedWorkerLosesItsLeaseAndChangesNothing() throws {
        XCTAssertEqual(try kiln(["enqueue", try slowJob()]).status, 0)
        let sleeper = try startWorker(["--once", "--threads", "1"], name: "sleeper")
        try waitUntil(60, "the render to be under way") { try progress(of: 1) > 0.05 }
        kill(sleeper.processIdentifier, SIGSTOP)
        Thread.sleep(forTimeInterval: 3)  // past the 2 s lease
        let rescuer = try kiln(["worker", "--drain", "--threads", "2"])
        XCTAssertEqual(rescuer.status, 0, rescuer.stderr)
        XCTAssertEqual(try states(), ["completed"])
        let completedBytes = try Data(contentsOf: outputs.appendingPathComponent("slow.mp4"))
        kill(sleeper.processIdentifier, SIGCONT)
        sleeper.waitUntilExit()
        XCTAssertTrue(workerLog("sleeper").contains("lease lost"), workerLog("sleeper"))
        XCTAssertEqual(try attempts(of: 1).map { $0["outcome"] as? String }, ["crashed", "completed"])
        XCTAssertEqual(try Data(contentsOf: outputs.appendingPathComponent("slow.mp4")), completedBytes)
        try assertQueueSound(frames: ["slow": 240])
    }

    func testSigtermHandsTheJobBackWithoutChargingAnAttempt() throws {
        XCTAssertEqual(try kiln(["enqueue", try slowJob()]).status, 0)
        let worker = try startWorker(["--threads", "1"], name: "terminated")
        try waitUntil(60, "the render to be under way") { try progress(of: 1) > 0.05 }
        let sent = Date()
        kill(worker.processIdentifier, SIGTERM)
        worker.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(sent), 10, "exits within its grace period")
        XCTAssertEqual(worker.terminationStatus, 143)
        let job = try XCTUnwrap(try status().first)
        XCTAssertEqual(job["state"] as? String, "available")
        XCTAssertEqual(job["attempt"] as? Int, 0, "the interrupted attempt is not charged")
        XCTAssertEqual(try attempts(of: 1).map { $0["outcome"] as? String }, ["interrupted"])

        XCTAssertEqual(try kiln(["worker", "--drain", "--threads", "2"]).status, 0)
        try assertQueueSound(frames: ["slow": 240])
    }

    func testCancelStopsARunningJobWithinAHeartbeat() throws {
        XCTAssertEqual(try kiln(["enqueue", try slowJob()]).status, 0)
        let worker = try startWorker(["--once", "--threads", "1"], name: "cancelled")
        try waitUntil(60, "the render to be under way") { try progress(of: 1) > 0.05 }
        let asked = Date()
        XCTAssertEqual(try kiln(["cancel", "1"]).status, 0)
        try waitUntil(10, "the job to be cancelled") { try states() == ["cancelled"] }
        XCTAssertLessThan(Date().timeIntervalSince(asked), 3, "the half-second check saw it")
        worker.waitUntilExit()
        XCTAssertEqual(worker.terminationStatus, 0, workerLog("cancelled"))
        XCTAssertEqual(try attempts(of: 1).map { $0["outcome"] as? String }, ["cancelled"])
        try assertQueueSound(frames: [:])
    }

    func testASecondSignalExitsAtOnce() throws {
        XCTAssertEqual(try kiln(["enqueue", try slowJob()]).status, 0)
        let worker = try startWorker(["--threads", "1", "--grace", "60"], name: "impatient")
        try waitUntil(60, "the render to be under way") { try progress(of: 1) > 0.05 }
        kill(worker.processIdentifier, SIGTERM)
        kill(worker.processIdentifier, SIGTERM)
        let sent = Date()
        worker.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(sent), 5)
        // Whatever the first signal managed, the job is not lost: a later worker finishes it.
        XCTAssertEqual(try kiln(["worker", "--drain", "--threads", "2"]).status, 0)
        try assertQueueSound(frames: ["slow": 240])
    }

    func testAVanishedAssetIsDiscardedAndTheQueueKeepsFlowing() throws {
        let photo = directory.appendingPathComponent("photo.png")
        try FileManager.default.copyItem(
            at: KilnProcess.repositoryRoot.appendingPathComponent("jobs/photos/forest.png"), to: photo)
        let job = try write(
            "card.json",
            """
            {"kiln": 1, "output": {"path": "out/card.mp4", "width": 32, "height": 32, "fps": 10, "duration": {"frames": 2}, "preset": "ultrafast"},
             "layers": [{"type": "image", "path": "photo.png", "size": [32, 32]}]}
            """)
        XCTAssertEqual(try kiln(["enqueue", job, try writeJob("after", frames: 3)]).status, 0)
        try FileManager.default.removeItem(at: photo)
        let worker = try kiln(["worker", "--drain"])
        XCTAssertEqual(worker.status, 0, worker.stderr)
        XCTAssertEqual(try states(), ["discarded", "completed"])
        XCTAssertEqual(try attempts(of: 1).count, 1, "a permanent error is not retried")
        XCTAssertTrue((try status().first?["error"] as? String ?? "").contains("photo.png"))
        try assertQueueSound(frames: ["after": 3])
    }

    /// A full disk: a tiny tmpfs when we may mount one (CI runs as root), else a file-size limit
    /// that makes writes fail the same way. The attempt fails as retryable with its temp file
    /// removed, and the job completes once there is room.
    func testDiskFullIsRetryableAndLeavesNoTempFile() throws {
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        let mounted = getuid() == 0 && mount(outputs.path, size: "64k")
        defer { if mounted { _ = umount(outputs.path) } }
        XCTAssertEqual(try kiln(["enqueue", try writeJob("big", frames: 60, size: (320, 240))]).status, 0)
        if mounted {
            _ = try kiln(["worker", "--once", "--threads", "1"])
        } else {
            // 64 KiB per file; SIGXFSZ ignored, so the write fails with EFBIG as on a full disk.
            let (process, out, err) = try KilnProcess.launch(
                URL(fileURLWithPath: "/bin/sh"),
                [
                    "-c", "ulimit -f 64; trap '' XFSZ; exec \"$0\" worker --once --threads 1",
                    KilnProcess.binary.path,
                ],
                cwd: directory, environment: environment)
            _ = KilnProcess.collect(process, out, err)
        }
        let job = try XCTUnwrap(try status().first)
        XCTAssertEqual(job["state"] as? String, "retryable", "\(job)")
        XCTAssertNotNil(job["error"] as? String)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: outputs.path), [], "no temp file left")
        if mounted {
            XCTAssertTrue(umount(outputs.path))
        }
        XCTAssertEqual(try kiln(["retry", "1"]).status, 0)
        XCTAssertEqual(try kiln(["worker", "--drain"]).status, 0)
        try assertQueueSound(frames: ["big": 60])
    }

    private func mount(_ path: String, size: String) -> Bool {
        (try? KilnProcess.tool("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]))?.status
            == 0
    }

    private func umount(_ path: String) -> Bool {
        (try? KilnProcess.tool("/bin/umount", [path]))?.status == 0
    }
}
