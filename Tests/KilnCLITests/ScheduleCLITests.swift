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
