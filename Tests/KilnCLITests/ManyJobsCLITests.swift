import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Acting on many jobs at once (`cancel`/`retry` with ids, `--all`, `--state`, `--batch`) and
/// watching the queue (`status --watch`).
final class ManyJobsCLITests: QueueTestCase {
    /// Three jobs from one batch file and one alone, all scheduled for later.
    private func enqueueFour() throws -> String {
        let job = try write(
            "named.json",
            #"""
            {"kiln": 1, "variables": {"n": "a"},
             "output": {"path": "out/{n}.mp4", "width": 16, "height": 16, "fps": 30, "duration": {"frames": 2}},
             "layers": [{"type": "solid", "color": "#336699"}]}
            """#)
        _ = try write("rows.csv", "n\nx\ny\nz\n")
        let batch = try kiln(["enqueue", job, "--batch", "rows.csv", "--at", "+1h", "--json"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        let listed = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(batch.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(listed.map { $0["batch"] as? Int }, [1, 1, 1], "one enqueue, one batch")
        XCTAssertTrue(batch.stderr.contains("batch 1"), batch.stderr)
        XCTAssertEqual(try kiln(["enqueue", job, "--set", "n=w", "--at", "+1h"]).status, 0)
        return job
    }

    func testCancelAndRetryManyJobs() throws {
        _ = try enqueueFour()
        XCTAssertTrue(try kiln(["status", "2"]).stdout.contains("batch:     1 (3 jobs queued together)"))

        let unknown = try kiln(["cancel", "--batch", "99"])
        XCTAssertEqual(unknown.status, 66, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("no batch with job 99"), unknown.stderr)
        // Any of its jobs names the batch ("every job queued together with job 2").
        let cancelled = try kiln(["cancel", "--batch", "2"])
        XCTAssertEqual(cancelled.status, 0, cancelled.stderr)
        XCTAssertEqual(cancelled.stderr, "kiln: cancelled 3 jobs (1, 2, 3)\n")
        XCTAssertEqual(try states(), ["cancelled", "cancelled", "cancelled", "scheduled"])

        let retried = try kiln(["retry", "--all", "--json"])
        XCTAssertEqual(retried.status, 0, retried.stderr)
        let rows = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(retried.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["id"] as? Int }, [1, 2, 3])
        XCTAssertEqual(rows.map { $0["changed"] as? Bool }, [true, true, true])
        XCTAssertEqual(try states(), ["available", "available", "available", "scheduled"])

        let some = try kiln(["cancel", "2", "4", "99"])
        XCTAssertEqual(some.status, 66, "an unknown id among them")
        XCTAssertTrue(some.stderr.contains("no job 99"), some.stderr)
        XCTAssertEqual(try states(), ["available", "cancelled", "available", "cancelled"])
        XCTAssertEqual(
            try kiln(["cancel", "2", "1"]).status, 65, "2 had already ended; 1 is cancelled anyway")
        XCTAssertEqual(try states(), ["cancelled", "cancelled", "available", "cancelled"])

        XCTAssertEqual(try kiln(["retry", "--state", "cancelled", "--batch", "1"]).status, 0)
        XCTAssertEqual(try states(), ["available", "available", "available", "cancelled"])
        XCTAssertEqual(try kiln(["cancel", "--all"]).stderr, "kiln: cancelled 3 jobs (1, 2, 3)\n")
        let none = try kiln(["cancel", "--all"])
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.stderr, "kiln: no jobs to cancel\n")
        XCTAssertEqual(
            try kiln(["retry", "--state", "completed"]).stderr, "kiln: no jobs to retry in state completed\n")
    }

    func testManyJobUsageErrors() throws {
        _ = try enqueueFour()
        for (args, message) in [
            (["cancel"], "cancel needs job ids, or --all, --state S or --batch N"),
            (["cancel", "1", "--all"], "give job ids or --all/--state/--batch, not both"),
            (["cancel", "--state", "completed"], "cancel does not apply to completed jobs"),
            (["retry", "--state", "runing"], "did you mean 'running'?"),
            (["status", "--state", "availble"], "did you mean 'available'?"),
        ] {
            let result = try kiln(args)
            XCTAssertEqual(result.status, 64, "\(args)")
            XCTAssertTrue(result.stderr.contains(message), "\(args): \(result.stderr)")
        }
        XCTAssertEqual(try states(), ["scheduled", "scheduled", "scheduled", "scheduled"], "nothing changed")
    }

    /// Piped, `status --watch ID` prints the job each time it changes and exits when it ends.
    func testWatchFollowsOneJobUntilItEnds() throws {
        _ = try enqueueFour()
        let (process, out, err) = try KilnProcess.start(
            ["status", "--watch", "--interval", "0.2", "2"], cwd: directory, environment: environment)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(process.isRunning, "a scheduled job is watched until it ends")
        XCTAssertEqual(try kiln(["cancel", "2"]).status, 0)
        XCTAssertTrue(KilnProcess.waitForExit(process, timeout: 10), "watch ends with the job")
        let result = KilnProcess.collect(process, out, err)
        XCTAssertEqual(result.status, 0, result.stderr)
        let snapshots = result.stdout.components(separatedBy: "\n\n")
        XCTAssertEqual(snapshots.count, 2, "printed when it changed, not every 0.2 s: \(result.stdout)")
        XCTAssertTrue(snapshots.first?.hasPrefix("job 2: scheduled") ?? false, result.stdout)
        XCTAssertTrue(snapshots.last?.hasPrefix("job 2: cancelled") ?? false, result.stdout)
    }

    /// The list form runs until Ctrl-C; with --json each change is one JSON array on one line.
    func testWatchTheListAsJSONLines() throws {
        _ = try enqueueFour()
        let (process, out, err) = try KilnProcess.start(
            ["status", "--watch", "--json", "--interval", "0.2"], cwd: directory, environment: environment)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(try kiln(["cancel", "--batch", "1"]).status, 0)
        Thread.sleep(forTimeInterval: 1)
        kill(process.processIdentifier, SIGINT)
        XCTAssertTrue(KilnProcess.waitForExit(process, timeout: 10))
        let result = KilnProcess.collect(process, out, err)
        XCTAssertEqual(result.status, 130, "interrupted: 128 + SIGINT")
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, result.stdout)
        let states = try lines.map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]]).map {
                $0["state"] as? String ?? "?"
            }
        }
        XCTAssertEqual(
            states,
            [
                ["scheduled", "scheduled", "scheduled", "scheduled"],
                ["cancelled", "cancelled", "cancelled", "scheduled"],
            ])
    }
}
