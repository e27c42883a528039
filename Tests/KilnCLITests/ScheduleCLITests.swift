import Foundation
import XCTest

/// `kiln schedule` from the command line (the tick itself is tested with an injected clock).
final class ScheduleCLITests: QueueTestCase {
    func testAddListNextPauseResumeRemove() throws {
        let job = try writeJob("nightly", frames: 2)
        let added = try kiln([
            "schedule", "add", "nightly", "--cron", "30 2 * * *", "--tz", "America/New_York", job,
        ])
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stderr.contains("next fire"), added.stderr)
        let next = try kiln(["schedule", "next", "nightly", "--count", "5"])
        XCTAssertEqual(next.stdout.split(separator: "\n").count, 5)
        XCTAssertTrue(next.stdout.contains("02:30"), next.stdout)
        XCTAssertTrue(next.stdout.contains("America/New_York"), next.stdout)
        let listed = try kiln(["schedule", "list", "--json"])
        let schedules = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(schedules.first?["misfire"] as? String, "run_once")
        XCTAssertEqual(schedules.first?["overlap"] as? String, "skip")
        XCTAssertEqual(schedules.first?["timeZone"] as? String, "America/New_York")
        XCTAssertEqual(try kiln(["schedule", "pause", "nightly"]).status, 0)
        XCTAssertTrue(try kiln(["schedule", "list"]).stdout.contains("paused"))
        XCTAssertEqual(try kiln(["schedule", "resume", "nightly"]).status, 0)
        XCTAssertEqual(
            try kiln(["schedule", "add", "nightly", "--cron", "@daily", job]).status, 65, "names are unique")
        XCTAssertEqual(try kiln(["schedule", "remove", "nightly"]).status, 0)
        XCTAssertEqual(try kiln(["schedule", "remove", "nightly"]).status, 66)
    }

    func testBadSchedulesAreRefusedWithReasons() throws {
        let job = try writeJob("j", frames: 2)
        let cron = try kiln(["schedule", "add", "x", "--cron", "*/0 * * * *", job])
        XCTAssertEqual(cron.status, 64)
        XCTAssertTrue(cron.stderr.contains("step '0'"), cron.stderr)
        XCTAssertEqual(
            try kiln(["schedule", "add", "x", "--cron", "@daily", "--tz", "Mars/Olympus", job]).status, 64)
        XCTAssertEqual(
            try kiln(["schedule", "add", "x", "--cron", "@daily", "--misfire", "sometimes", job]).status, 64)
        XCTAssertEqual(
            try kiln(["schedule", "add", "x", "--cron", "0 0 31 2 *", job]).status, 65, "never fires")
        let invalid = try write("bad.json", #"{"kiln": 1}"#)
        XCTAssertEqual(try kiln(["schedule", "add", "x", "--cron", "@daily", invalid]).status, 65)
        XCTAssertEqual(try kiln(["schedule", "list"]).stdout, "", "nothing was added")
        let tryOut = try kiln([
            "schedule", "next", "--cron", "*/15 9-17 * * mon-fri", "--tz", "Europe/Berlin", "--count", "3",
        ])
        XCTAssertEqual(tryOut.stdout.split(separator: "\n").count, 3)
    }

    /// A job whose output names the schedule, the fire's date and time and a variable.
    func writeTitledJob(_ name: String = "titled") throws -> String {
        try write(
            "\(name).json",
            #"""
            {"kiln": 1, "variables": {"title": "untitled"},
             "output": {"path": "out/{schedule}-{date}-{time}-${title}.mp4", "width": 16, "height": 16,
                        "fps": 10, "duration": {"frames": 1}, "preset": "ultrafast"},
             "layers": [{"type": "solid", "color": "#336699"}]}
            """#)
    }

    func scheduleList() throws -> [[String: Any]] {
        let listed = try kiln(["schedule", "list", "--json"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    }

    /// Adding a name twice says what to do instead, not the store's "SQLite error 19".
    func testADuplicateNameIsAClearError() throws {
        let job = try writeJob("nightly", frames: 2)
        XCTAssertEqual(try kiln(["schedule", "add", "nightly", "--cron", "@daily", job]).status, 0)
        let again = try kiln(["schedule", "add", "nightly", "--cron", "@hourly", job])
        XCTAssertEqual(again.status, 65)
        XCTAssertEqual(
            again.stderr,
            "kiln: error: a schedule named 'nightly' already exists; use `kiln schedule update nightly` or "
                + "remove it\n")
        XCTAssertEqual(try scheduleList().map { $0["cron"] as? String }, ["@daily"])
    }

    /// Empty lists say so on stderr (stdout stays empty for scripts; JSON is `[]`), and tables
    /// start with a header line.
    func testEmptyListsSaySoAndTablesHaveHeaders() throws {
        for (args, message) in [
            (["schedule", "list"], "kiln: no schedules\n"), (["status"], "kiln: no jobs\n"),
            (["status", "--state", "running"], "kiln: no jobs in state running\n"),
        ] {
            let result = try kiln(args)
            XCTAssertEqual(result.status, 0, "\(args): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(args)")
            XCTAssertEqual(result.stderr, message, "\(args)")
        }
        for args in [["schedule", "list", "--json"], ["status", "--json"]] {
            let result = try kiln(args)
            XCTAssertEqual(result.status, 0, "\(args): \(result.stderr)")
            XCTAssertEqual(result.stdout, "[]\n", "\(args)")
        }
        let job = try writeJob("nightly", frames: 2)
        XCTAssertEqual(
            try kiln(["schedule", "add", "nightly", "--cron", "30 2 * * *", "--tz", "Europe/Berlin", job])
                .status, 0)
        let table = try kiln(["schedule", "list"]).stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(table.count, 2, "\(table)")
        let (header, row) = (table.first ?? "", table.dropFirst().first ?? "")
        XCTAssertTrue(header.hasPrefix("NAME     CRON        ZONE           NEXT FIRE"), header)
        XCTAssertTrue(row.hasPrefix("nightly  30 2 * * *  Europe/Berlin  "), row)
        XCTAssertEqual(try kiln(["schedule", "list"]).stderr, "")
    }

    /// `schedule update` changes only what it is given, checks the job again as add does and
    /// moves the next fire when the expression or zone changes.
    func testUpdateChangesOnlyWhatIsGiven() throws {
        let job = try writeTitledJob()
        XCTAssertEqual(
            try kiln([
                "schedule", "add", "nightly", "--cron", "30 2 * * *", "--tz", "Europe/Berlin", "--set",
                "title=A",
                job,
            ]).status, 0)
        let cron = try kiln(["schedule", "update", "nightly", "--cron", "15 5 * * *"])
        XCTAssertEqual(cron.status, 0, cron.stderr)
        XCTAssertTrue(cron.stderr.contains("kiln: schedule 'nightly' updated; next fire "), cron.stderr)
        XCTAssertTrue(cron.stderr.contains("05:15 "), cron.stderr)
        var schedule = try XCTUnwrap(try scheduleList().first)
        XCTAssertEqual(schedule["cron"] as? String, "15 5 * * *")
        XCTAssertEqual(schedule["timeZone"] as? String, "Europe/Berlin", "the zone stays")
        XCTAssertEqual(schedule["variables"] as? [String: String], ["title": "A"])
        XCTAssertTrue(try kiln(["schedule", "next", "nightly", "--count", "1"]).stdout.contains("05:15"))

        let more = try kiln([
            "schedule", "update", "nightly", "--tz", "America/New_York", "--set", "title=B", "--priority",
            "3",
            "--misfire", "skip", "--overlap", "allow",
        ])
        XCTAssertEqual(more.status, 0, more.stderr)
        schedule = try XCTUnwrap(try scheduleList().first)
        XCTAssertEqual(schedule["cron"] as? String, "15 5 * * *", "the expression stays")
        XCTAssertEqual(schedule["timeZone"] as? String, "America/New_York")
        XCTAssertEqual(schedule["variables"] as? [String: String], ["title": "B"])
        XCTAssertEqual(schedule["priority"] as? Int, 3)
        XCTAssertEqual(schedule["misfire"] as? String, "skip")
        XCTAssertEqual(schedule["overlap"] as? String, "allow")
        XCTAssertTrue(
            try kiln(["schedule", "next", "nightly", "--count", "1"]).stdout.contains("America/New_York"))

        XCTAssertEqual(try kiln(["schedule", "update", "nightly", "--unset", "title"]).status, 0)
        XCTAssertEqual(try scheduleList().first?["variables"] as? [String: String], [:])

        // The job is checked again: a new job with an unknown variable is refused, nothing changes.
        let other = try writeJob("other", frames: 2)
        let refused = try kiln(["schedule", "update", "nightly", "--set", "title=C", other])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("no variable 'title'"), refused.stderr)
        XCTAssertEqual(try scheduleList().first?["job"] as? String, job)
        let replaced = try kiln(["schedule", "update", "nightly", other])
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertEqual(try scheduleList().first?["job"] as? String, other)

        let nothing = try kiln(["schedule", "update", "nightly"])
        XCTAssertEqual(nothing.status, 64)
        XCTAssertTrue(nothing.stderr.contains("schedule update needs something to change"), nothing.stderr)
        let typo = try kiln(["schedule", "update", "nightyl", "--priority", "1"])
        XCTAssertEqual(typo.status, 66)
        XCTAssertTrue(
            typo.stderr.contains("no schedule named 'nightyl'; did you mean 'nightly'?"), typo.stderr)
        XCTAssertEqual(
            try kiln(["schedule", "update", "nightly", "--cron", "0 0 31 2 *"]).status, 65, "never fires")
        XCTAssertEqual(try scheduleList().first?["cron"] as? String, "15 5 * * *")
    }

    /// `schedule run` enqueues one job now, as a fire would (variables, priority, `{schedule}`),
    /// prints its id, and leaves the schedule's next fire alone.
    func testRunEnqueuesOneJobNowAsAFireWould() throws {
        let job = try writeTitledJob()
        XCTAssertEqual(
            try kiln([
                "schedule", "add", "nightly", "--cron", "30 2 * * *", "--set", "title=T", "--priority", "4",
                job,
            ]).status, 0)
        let before = try XCTUnwrap(try scheduleList().first?["nextFire"] as? String)
        let run = try kiln(["schedule", "run", "nightly"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let id = try XCTUnwrap(Int(run.stdout.trimmingCharacters(in: .newlines)), run.stdout)
        let made = try XCTUnwrap(try status().first)
        XCTAssertEqual(made["id"] as? Int, id)
        XCTAssertNotNil(made["scheduleID"] as? Int)
        XCTAssertNotNil(made["fireTime"] as? String)
        XCTAssertEqual(made["priority"] as? Int, 4)
        XCTAssertEqual(made["variables"] as? [String: String], ["title": "T"])
        let output = URL(fileURLWithPath: try XCTUnwrap(made["output"] as? String)).lastPathComponent
        XCTAssertTrue(output.hasPrefix("nightly-20"), output)
        XCTAssertTrue(output.hasSuffix("-T.mp4"), output)
        XCTAssertEqual(try scheduleList().first?["nextFire"] as? String, before)

        let unknown = try kiln(["schedule", "run", "nigthly"])
        XCTAssertEqual(unknown.status, 66)
        XCTAssertTrue(unknown.stderr.contains("did you mean 'nightly'?"), unknown.stderr)
        XCTAssertEqual(try status().count, 1)
    }

    /// The README's schedule: a job under jobs/ writing ../out/. Its roots are stored with the
    /// schedule, so `schedule run` (and each fire) is checked under them, not refused as outside
    /// the job's own directory.
    func testRootsAndLimitsAreStoredWithTheScheduleAndFireWithIt() throws {
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("jobs"), withIntermediateDirectories: true)
        let job = try write(
            "jobs/nightly.json",
            #"{"kiln": 1, "output": {"path": "../out/nightly.mp4", "width": 32, "height": 32, "fps": 10, "duration": 0.2}, "layers": []}"#
        )
        let refused = try kiln(["schedule", "add", "nightly", "--cron", "0 2 * * *", job])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("outside the output roots"), refused.stderr)
        let added = try kiln([
            "schedule", "add", "nightly", "--cron", "0 2 * * *", "--output-root", "out", "--limit",
            "frames=100",
            job,
        ])
        XCTAssertEqual(added.status, 0, added.stderr)
        let listed = try XCTUnwrap(try scheduleList().first)
        XCTAssertEqual(listed["outputRoots"] as? [String], [directory.appendingPathComponent("out").path])
        XCTAssertEqual(listed["limits"] as? [String: Double], ["frames": 100])
        let run = try kiln(["schedule", "run", "nightly"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try status().count, 1)
        // A worker confines every job by its own roots, so it is given the same.
        let worker = try kiln(["worker", "--drain", "--output-root", "out"])
        XCTAssertEqual(worker.status, 0, worker.stderr)
        XCTAssertEqual(try states(), ["completed"])
        // The stored limit holds at each fire: a tighter one refuses the job.
        let tighter = try kiln(["schedule", "update", "nightly", "--limit", "frames=1"])
        XCTAssertEqual(tighter.status, 65, tighter.stderr)
        XCTAssertEqual(try scheduleList().first?["limits"] as? [String: Double], ["frames": 100])
        // --limit alone keeps the stored roots.
        XCTAssertEqual(try kiln(["schedule", "update", "nightly", "--limit", "frames=50"]).status, 0)
        let kept = try XCTUnwrap(try scheduleList().first)
        XCTAssertEqual(kept["outputRoots"] as? [String], [directory.appendingPathComponent("out").path])
        XCTAssertEqual(kept["limits"] as? [String: Double], ["frames": 50])
    }

    /// `schedule add --help` promises {schedule}, {date} and {time}: the check at add time knows
    /// them as the fire will (it once rejected {schedule} as an unknown name).
    func testAddAcceptsTheNamesItsHelpPromises() throws {
        let job = try write(
            "nightly.json",
            #"""
            {"kiln": 1, "output": {"path": "out/{schedule}-{date}-{time}.mp4", "width": 16, "height": 16,
                                   "fps": 10, "duration": {"frames": 1}, "preset": "ultrafast"},
             "layers": [{"type": "solid", "color": "#336699"}]}
            """#)
        let added = try kiln(["schedule", "add", "nightly", "--cron", "@daily", job])
        XCTAssertEqual(added.status, 0, added.stderr)
        let help = try kiln(["schedule", "add", "--help"])
        XCTAssertTrue(help.stdout.contains("{schedule}"), "the help still documents it")
        let misspelt = try write(
            "typo.json",
            try String(contentsOfFile: job, encoding: .utf8)
                .replacingOccurrences(of: "{schedule}", with: "{schedul}"))
        let refused = try kiln(["schedule", "add", "typo", "--cron", "@daily", misspelt])
        XCTAssertEqual(refused.status, 65)
        XCTAssertTrue(refused.stderr.contains("unknown name '{schedul}'"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("schedule"), "the known names include schedule")
    }
}
