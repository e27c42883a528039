import Foundation
import KilnTestSupport
import XCTest

/// The same commands against PostgreSQL (the server `scripts/test.sh` starts): two workers share
/// a queue through `--queue postgres://…`.
final class PostgresQueueCLITests: PostgresQueueTestCase {
    /// PostgreSQL's unique violation reads as SQLite's does: the name is taken.
    func testADuplicateScheduleNameIsAClearError() throws {
        let job = try writeJob("nightly", frames: 2)
        XCTAssertEqual(try kiln(["schedule", "add", "nightly", "--cron", "@daily", job]).status, 0)
        let again = try kiln(["schedule", "add", "nightly", "--cron", "@hourly", job])
        XCTAssertEqual(again.status, 65)
        XCTAssertEqual(
            again.stderr,
            "kiln: error: a schedule named 'nightly' already exists; use `kiln schedule update nightly` or "
                + "remove it\n")
    }

    func testTwoWorkersDrainASharedQueue() throws {
        var frames: [String: Int] = [:]
        var files: [String] = []
        for i in 0..<12 {
            files.append(try writeJob("p\(i)", frames: 2 + i % 3, size: (16, 16)))
            frames["p\(i)"] = 2 + i % 3
        }
        let enqueued = try kiln(["enqueue"] + files)
        XCTAssertEqual(enqueued.status, 0, enqueued.stderr)
        let workers = try (0..<2).map { try startWorker(["--drain", "--threads", "1"], name: "pg\($0)") }
        for worker in workers { worker.waitUntilExit() }
        XCTAssertEqual(workers.map(\.terminationStatus), [0, 0], workerLog("pg0") + workerLog("pg1"))
        let jobs = try status()
        XCTAssertEqual(jobs.count, 12)
        XCTAssertEqual(Set(jobs.map { $0["state"] as? String }), ["completed"])
        XCTAssertEqual(jobs.map { ($0["attempts"] as? [Any])?.count }, Array(repeating: 1, count: 12))
        for job in jobs {
            let output = try XCTUnwrap(job["output"] as? String)
            let name = URL(fileURLWithPath: output).deletingPathExtension().lastPathComponent
            XCTAssertEqual(try VideoDecodeBack.decode(path: output).decodedFrameCount, frames[name])
        }
    }

    /// The server restarts mid-render: the heartbeat and the worker's own connection reconnect
    /// within the lease, and the same attempt completes. Every wait is bounded, so a regression
    /// fails the test instead of hanging the run.
    func testAWorkerRidesOutAServerRestart() throws {
        guard let dir = ProcessInfo.processInfo.environment["KILN_TEST_POSTGRES_DIR"], !dir.isEmpty else {
            throw XCTSkip("KILN_TEST_POSTGRES_DIR is not set")
        }
        let job = try writeJob("long", frames: 150, size: (1280, 720), slow: true)
        XCTAssertEqual(try kiln(["enqueue", job]).status, 0)
        // A 20 s lease (heartbeat every 5 s) outlasts the restart; 0.1 s a frame more makes the
        // render take 15 s however fast the machine is, so the restart falls inside it.
        let worker = try startWorker(
            ["--threads", "1"], name: "survivor",
            environment: ["KILN_QUEUE_LEASE_SECONDS": "20", "KILN_FAULT_FRAME_DELAY": "0.1"])
        defer { _ = KilnProcess.waitForExit(worker, timeout: 0) }
        try waitUntil(60, "the render to be under way") {
            let job = try status().first
            return job?["state"] as? String == "running"
                && (5..<80).contains(job?["progress"] as? Double ?? 0)
        }
        let restarted = try KilnProcess.runWithTimeout(
            "/bin/bash",
            [
                KilnProcess.repositoryRoot.appendingPathComponent("scripts/postgres-test-cluster.sh").path,
                "restart", dir,
            ],
            timeout: 90)
        XCTAssertEqual(restarted, 0, "pg_ctl restart failed or did not finish in 90 s")

        try waitUntil(180, "the job to complete") {
            try status().first?["state"] as? String == "completed"
        }
        kill(worker.processIdentifier, SIGTERM)
        XCTAssertTrue(KilnProcess.waitForExit(worker, timeout: 30), "the worker did not exit on SIGTERM")
        let jobs = try status()
        XCTAssertEqual((jobs.first?["attempts"] as? [Any])?.count, 1, "the same attempt finished: \(jobs)")
        XCTAssertTrue(workerLog("survivor").contains("lost the queue connection"), workerLog("survivor"))
        XCTAssertEqual(
            try VideoDecodeBack.decode(path: outputs.appendingPathComponent("long.mp4").path)
                .decodedFrameCount, 150)
    }
}
