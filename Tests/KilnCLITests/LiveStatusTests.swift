import Foundation
import XCTest

/// What `kiln status` shows of a running job, and how soon `kiln cancel` stops it, with the
/// design's lease (60 s, a heartbeat every 15 s): progress must not wait for the heartbeat, and
/// nothing of an earlier state may be left in a job's row.
final class LiveStatusTests: QueueTestCase {
    override var environment: [String: String] {
        super.environment.merging(["KILN_QUEUE_LEASE_SECONDS": "60"]) { $1 }
    }

    /// A render paced at 10 frames a second (`KILN_FAULT_FRAME_DELAY`), so progress moves steadily.
    private func startPacedJob(frames: Int) throws -> Process {
        XCTAssertEqual(try kiln(["enqueue", try writeJob("paced", frames: frames)]).status, 0)
        return try startWorker(
            ["--once", "--threads", "1"], name: "paced", environment: ["KILN_FAULT_FRAME_DELAY": "0.1"])
    }

    private func job(_ id: Int) throws -> [String: Any]? {
        try status().first { $0["id"] as? Int == id }
    }

    func testStatusFollowsARunningJobWithinSeconds() throws {
        // 12 s of frames: with only the heartbeat (every 15 s), status would show 0 % until the
        // commit's renewal, just before the job ended.
        let worker = try startPacedJob(frames: 120)
        defer { if worker.isRunning { worker.terminate() } }
        var lastChange: (at: Date, progress: Double)?
        var seen: [Double] = []
        try waitUntil(60, "status to show the running job between 40 and 80 %") {
            let row = try job(1)
            guard row?["state"] as? String == "running" else {
                XCTAssertNotEqual(
                    row?["state"] as? String, "completed", "ended before status showed it midway: \(seen)")
                return row?["state"] as? String == "completed"
            }
            let progress = row?["progress"] as? Double ?? 0
            let now = Date()
            if progress > 0, progress != lastChange?.progress {
                lastChange = (now, progress)
                seen.append(progress)
            } else if let last = lastChange {
                XCTAssertLessThan(
                    now.timeIntervalSince(last.at), 3, "progress stood at \(last.progress) % for 3 s: \(seen)"
                )
            }
            return (40..<80).contains(progress)
        }
        XCTAssertEqual(try job(1)?["stage"] as? String, "rendering")
        // Some 12 s of work, 40-80 % done: between one and twenty seconds to go.
        let eta = try XCTUnwrap(try job(1)?["eta"] as? Double, "a running job's estimate")
        XCTAssertTrue((0.5...20).contains(eta), "eta \(eta) s")
        let table = try kiln(["status"]).stdout
        XCTAssertTrue(
            table.split(separator: "\n").contains {
                $0.hasPrefix("1 ") && $0.contains("running") && !$0.contains(" 0%") && $0.contains(" ~0:")
            },
            table)
        XCTAssertNotNil(try kiln(["status", "1"]).stdout.firstMatch(of: #/about 0:\d\d left/#))
        XCTAssertTrue(KilnProcess.waitForExit(worker, timeout: 60), workerLog("paced"))
        XCTAssertEqual(try job(1)?["progress"] as? Double, 100)
    }

    func testCancelStopsARunningJobWithinASecond() throws {
        let worker = try startPacedJob(frames: 600)
        defer { if worker.isRunning { worker.terminate() } }
        try waitUntil(60, "the render to be under way") {
            try job(1)?["state"] as? String == "running" && (try job(1)?["progress"] as? Double ?? 0) > 0
        }
        XCTAssertEqual(try kiln(["cancel", "1"]).status, 0)
        let asked = Date()
        XCTAssertTrue(KilnProcess.waitForExit(worker, timeout: 30), workerLog("paced"))
        let latency = Date().timeIntervalSince(asked)
        XCTAssertLessThan(latency, 1.5, "the worker stopped \(latency) s after the cancel")
        XCTAssertEqual(worker.terminationStatus, 0, workerLog("paced"))
        let row = try XCTUnwrap(try job(1))
        XCTAssertEqual(row["state"] as? String, "cancelled")
        XCTAssertEqual(row["progress"] as? Double, 0)
        XCTAssertTrue(row["stage"] is NSNull, "\(row)")
        let details = try kiln(["status", "1"]).stdout
        XCTAssertTrue(details.contains("job 1: cancelled\n"), details)
        XCTAssertTrue(details.contains("  progress:  0.0%\n"), details)
        try assertQueueSound(frames: [:])
    }

    /// The reported lines: `available 100% 1/6` for a retried completed job, and `0.0%
    /// (rendering)` for a discarded one.
    func testEndedAndRequeuedJobsShowNoLeftovers() throws {
        let short = try writeJob("short", frames: 2), long = try writeJob("long", frames: 4)
        XCTAssertEqual(try kiln(["enqueue", short, long]).status, 0)
        let worker = try kiln(["worker", "--drain", "--limit", "frames=3"])
        XCTAssertEqual(worker.status, 0, worker.stderr)
        XCTAssertEqual(try states(), ["completed", "discarded"])
        let discarded = try kiln(["status", "2"]).stdout
        XCTAssertTrue(discarded.contains("  progress:  0.0%\n"), discarded)
        XCTAssertTrue(try job(2)?["stage"] is NSNull)
        let completed = try kiln(["status", "1"]).stdout
        XCTAssertTrue(completed.contains("  progress:  100.0%\n"), completed)

        XCTAssertEqual(try kiln(["retry", "1"]).status, 0)
        let table = try kiln(["status"]).stdout
        let row = try XCTUnwrap(table.split(separator: "\n").first { $0.hasPrefix("1 ") }, table)
        XCTAssertEqual(row.split(separator: " ").prefix(4).map(String.init), ["1", "available", "0%", "1/6"])
        let retried = try kiln(["status", "1"]).stdout
        XCTAssertTrue(retried.contains("  progress:  0.0%\n"), retried)
        XCTAssertTrue(try job(1)?["stage"] is NSNull)
    }

    /// `kiln logs -f` prints a running job's events as they come and exits once it has ended.
    func testLogsFollowsAJobUntilItEnds() throws {
        let worker = try startPacedJob(frames: 20)
        defer { if worker.isRunning { worker.terminate() } }
        let (follower, stdout, _) = try KilnProcess.start(
            ["logs", "1", "-f"], cwd: directory, environment: environment)
        defer { if follower.isRunning { follower.terminate() } }
        try waitUntil(60, "logs -f to exit after the job ends") { !follower.isRunning }
        XCTAssertEqual(follower.terminationStatus, 0)
        let text = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(text.contains("enqueued"), text)
        XCTAssertTrue(text.contains("completed"), text)
        XCTAssertEqual(try job(1)?["state"] as? String, "completed")
        // An ended job: its events, then out at once.
        let ended = try kiln(["logs", "1", "--follow"])
        XCTAssertEqual(ended.status, 0)
        XCTAssertEqual(ended.stdout, try kiln(["logs", "1"]).stdout)
    }
}
