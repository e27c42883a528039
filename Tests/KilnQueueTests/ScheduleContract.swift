import Foundation
import KilnQueue
import XCTest

/// Schedule storage, written once for every backend like `StoreContract`.
enum ScheduleContract {
    @discardableResult
    static func add(_ name: String, _ cron: String, zone: String = "UTC", to store: QueueStore) throws
        -> Schedule
    {
        try store.addSchedule(
            name: name, cron: try CronExpression(cron, timeZone: try XCTUnwrap(TimeZone(identifier: zone))),
            misfire: .runOnce, overlap: .skip, jobFile: "/jobs/\(name).json", variables: ["title": "A"],
            priority: 0)
    }

    /// SQLite's SQLITE_CONSTRAINT_UNIQUE and PostgreSQL's 23505 both arrive as `ScheduleNameTaken`,
    /// and the first schedule is left as it was.
    static func aTakenNameIsOneErrorOnEveryBackend(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        try add("nightly", "0 2 * * *", to: store)
        XCTAssertThrowsError(try add("nightly", "@hourly", to: store)) { error in
            XCTAssertEqual(error as? ScheduleNameTaken, ScheduleNameTaken(name: "nightly"), "\(error)")
            XCTAssertEqual("\(error)", "a schedule named 'nightly' already exists")
        }
        XCTAssertEqual(try store.schedules().map(\.cron), ["0 2 * * *"])
    }

    /// Only what is given changes; a new expression or zone moves the next fire to the first one
    /// after now, and the same expression again leaves a due fire due.
    static func updateChangesOnlyWhatIsGiven(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let now = fixture.clock.wall()  // 2027-01-15 08:00:00 UTC
        let added = try add("nightly", "0 2 * * *", to: store)
        XCTAssertEqual(added.nextFire, now + 18 * 3600)

        var change = ScheduleChange()
        change.variables = ["title": "B", "mood": "calm"]
        change.priority = 7
        change.overlap = .allow
        let changed = try XCTUnwrap(try store.updateSchedule(named: "nightly", change))
        XCTAssertEqual(changed.nextFire, added.nextFire, "no new expression: the next fire stays")
        XCTAssertEqual(changed.cron, "0 2 * * *")
        XCTAssertEqual(changed.misfire, .runOnce)

        change = ScheduleChange()
        change.cron = try CronExpression(
            "0 9 * * *", timeZone: try XCTUnwrap(TimeZone(identifier: "Europe/Berlin")))
        change.jobFile = "/jobs/other.json"
        let moved = try XCTUnwrap(try store.updateSchedule(named: "nightly", change))
        XCTAssertEqual(moved.nextFire, now + 3600 * 24, "09:00 in Berlin is 08:00 UTC, just passed")

        let stored = try XCTUnwrap(try store.schedule(named: "nightly"))
        XCTAssertEqual(stored, moved, "what update returns is what was stored")
        XCTAssertEqual(stored.id, added.id)
        XCTAssertEqual(stored.timeZone, "Europe/Berlin")
        XCTAssertEqual(stored.jobFile, "/jobs/other.json")
        XCTAssertEqual(stored.variables, ["title": "B", "mood": "calm"])
        XCTAssertEqual(stored.priority, 7)
        XCTAssertEqual(stored.overlap, .allow)

        XCTAssertNil(try store.updateSchedule(named: "nightyl", ScheduleChange()))
        change = ScheduleChange()
        change.cron = try CronExpression("0 0 31 2 *")
        XCTAssertThrowsError(try store.updateSchedule(named: "nightly", change), "never fires")
        XCTAssertEqual(try store.schedule(named: "nightly"), stored, "a refused update changes nothing")
    }
}
