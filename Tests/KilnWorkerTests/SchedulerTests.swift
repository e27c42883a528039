import Foundation
import KilnQueue
import KilnTestSupport
import KilnWorker
import XCTest

/// The cron tick with an injected clock: misfire policies, clock jumps, overlap, bad jobs, and
/// several schedulers ticking (and dying) at once.
final class SchedulerTests: ScratchDirectoryTestCase {
    private var clock: ManualClock!
    private var job: String { directory.appendingPathComponent("tick.json").path }
    private var database: String { directory.appendingPathComponent("queue.sqlite3").path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Data(
            ##"""
            {"kiln": 1, "output": {"path": "out/{schedule}-{date}-{time}.mp4", "width": 16, "height": 16, "fps": 10,
                                   "duration": {"frames": 1}, "preset": "ultrafast"},
             "layers": [{"type": "solid", "color": "#336699"}]}
            """##.utf8
        ).write(to: URL(fileURLWithPath: job))
        // 2027-01-15 08:00:30 UTC: half a minute past a minute boundary.
        clock = ManualClock(wall: 1_800_000_030)
    }

    /// The queue the tests use: the SQLite file, or (`postgresURL` set) a scratch PostgreSQL database.
    private var postgresURL: String?
    private func store() throws -> QueueStore {
        if let postgresURL { return try QueueStore(postgresURL: postgresURL, clock: clock) }
        return try QueueStore(path: database, clock: clock)
    }

    @discardableResult
    private func add(
        _ cron: String, misfire: MisfirePolicy = .runOnce, overlap: OverlapPolicy = .allow,
        in store: QueueStore
    ) throws -> Schedule {
        try store.addSchedule(
            name: "s", cron: try CronExpression(cron), misfire: misfire, overlap: overlap, jobFile: job,
            variables: [:], priority: 0)
    }

    private func tick(_ store: QueueStore) throws -> Int {
        try Scheduler(store: store, log: { _ in }).tick()
    }

    private func fireTimes(_ store: QueueStore) throws -> [Double] {
        try store.jobs(states: nil).compactMap(\.fireTime)
    }

    func testEveryMinuteForTenMinutesMakesTenJobsWithTheirFireTimes() throws {
        let store = try store()
        try add("* * * * *", in: store)
        XCTAssertEqual(try tick(store), 0, "nothing due yet")
        for _ in 0..<10 {
            clock.advance(60)
            XCTAssertEqual(try tick(store), 1)
            XCTAssertEqual(try tick(store), 0, "a second tick in the same minute adds nothing")
        }
        XCTAssertEqual(try fireTimes(store), (1...10).map { 1_800_000_000 + Double($0) * 60 })
        let first = try XCTUnwrap(try store.jobs(states: nil).first)
        XCTAssertEqual(URL(fileURLWithPath: first.output).lastPathComponent, "s-2027-01-15-080100.mp4")
    }

    func testMisfirePoliciesAfterTheClockJumpsForward() throws {
        for (policy, expected) in [(MisfirePolicy.runOnce, 1), (.skip, 1), (.runAll, 4)] {
            let store = try QueueStore(
                path: directory.appendingPathComponent("\(policy).sqlite3").path, clock: clock)
            try add("*/30 * * * *", misfire: policy, in: store)
            clock.jumpWall(2 * 3600)
            XCTAssertEqual(try tick(store), expected, "\(policy)")
            let schedule = try XCTUnwrap(try store.schedule(named: "s"))
            XCTAssertGreaterThan(
                schedule.nextFire ?? 0, clock.wall(), "\(policy): next fire is in the future")
            if policy != .runAll {
                XCTAssertTrue(schedule.lastNote?.contains("missed") ?? false, "\(policy)")
            }
            clock.jumpWall(-2 * 3600)
        }
        // Long after: run_once gives up beyond its hour of grace; skip runs only on-time fires.
        let late = try QueueStore(
            path: directory.appendingPathComponent("late.sqlite3").path, clock: clock)
        try add("0 0 1 1 *", misfire: .runOnce, in: late)
        clock.jumpWall(400 * 86_400)
        XCTAssertEqual(try tick(late), 0)
    }

    func testAClockSetBackDoesNotFireTwice() throws {
        let store = try store()
        try add("*/10 * * * *", in: store)
        clock.advance(600)  // 08:10:30: the 08:10 fire
        XCTAssertEqual(try tick(store), 1)
        clock.jumpWall(-2 * 3600)
        for _ in 0..<12 {
            clock.advance(600)
            XCTAssertEqual(try tick(store), 0, "the fires between 06:10 and 08:10 already happened")
        }
        clock.advance(600)  // 08:20:30 again on the wall clock
        XCTAssertEqual(try tick(store), 1)
        XCTAssertEqual(try fireTimes(store), [1_800_000_600, 1_800_001_200])
    }

    func testOverlappingRunsAreSkippedByDefault() throws {
        let store = try store()
        try add("* * * * *", overlap: .skip, in: store)
        clock.advance(60)
        XCTAssertEqual(try tick(store), 1)
        clock.advance(60)
        XCTAssertEqual(try tick(store), 0, "the first run is still waiting")
        XCTAssertTrue(
            try store.schedule(named: "s")?.lastNote?.contains("previous run is still active") ?? false)
        let claim = try XCTUnwrap(try store.claim(as: .current(name: "w")))
        XCTAssertTrue(try store.complete(claim))
        clock.advance(60)
        XCTAssertEqual(try tick(store), 1)
    }

    func testAnInvalidJobAtFireTimeIsNotedAndTheScheduleMovesOn() throws {
        let store = try store()
        try add("* * * * *", in: store)
        try Data("{broken".utf8).write(to: URL(fileURLWithPath: job))
        clock.advance(60)
        XCTAssertEqual(try tick(store), 0)
        let schedule = try XCTUnwrap(try store.schedule(named: "s"))
        XCTAssertTrue(schedule.lastNote?.contains("not enqueued") ?? false, schedule.lastNote ?? "")
        XCTAssertEqual(schedule.nextFire, 1_800_000_120)
    }

    func testPausedSchedulesDoNotFireAndResumeFromNow() throws {
        let store = try store()
        try add("* * * * *", in: store)
        XCTAssertTrue(try store.setPaused(true, named: "s"))
        clock.advance(600)
        XCTAssertEqual(try tick(store), 0)
        XCTAssertTrue(try store.setPaused(false, named: "s"))
        XCTAssertEqual(try tick(store), 0, "the paused minutes are not made up")
        clock.advance(60)
        XCTAssertEqual(try tick(store), 1)
    }

    /// `kiln schedule run`: one job now, named and linked as a fire at this moment would be, with
    /// the schedule's variables and priority; the cron's own fires go on as before.
    func testFireNowMakesOneJobAsAFireWouldAndLeavesTheFiresAlone() throws {
        let titled = directory.appendingPathComponent("titled.json").path
        try Data(
            ##"""
            {"kiln": 1, "variables": {"title": "untitled"},
             "output": {"path": "out/{schedule}-{date}-{time}-${title}.mp4", "width": 16, "height": 16, "fps": 10,
                        "duration": {"frames": 1}, "preset": "ultrafast"},
             "layers": [{"type": "solid", "color": "#336699"}]}
            """##.utf8
        ).write(to: URL(fileURLWithPath: titled))
        let store = try store()
        let schedule = try store.addSchedule(
            name: "s", cron: try CronExpression("0 * * * *"), misfire: .runOnce, overlap: .skip,
            jobFile: titled,
            variables: ["title": "T"], priority: 7)
        let id = try Scheduler(store: store, log: { _ in }).fireNow(schedule)
        let made = try XCTUnwrap(try store.job(id: id))
        XCTAssertEqual(made.scheduleID, schedule.id)
        XCTAssertEqual(made.fireTime, clock.wall())
        XCTAssertEqual(made.priority, 7)
        XCTAssertEqual(made.variables, ["title": "T"])
        XCTAssertEqual(URL(fileURLWithPath: made.output).lastPathComponent, "s-2027-01-15-080030-T.mp4")
        XCTAssertEqual(try store.schedule(named: "s")?.nextFire, schedule.nextFire)
        XCTAssertNil(try store.schedule(named: "s")?.lastFire, "a run asked for is not a fire")
        clock.advance(3600)
        XCTAssertEqual(try tick(store), 0, "overlap skip: the run asked for is still waiting")
        XCTAssertTrue(try store.complete(try XCTUnwrap(try store.claim(as: .current(name: "w")))))
        clock.advance(3600)
        XCTAssertEqual(try tick(store), 1)
    }

    /// Three schedulers over ten simulated minutes of `* * * * *`, each dying at random before it
    /// commits (as a killed process would): exactly ten jobs, one per fire.
    func testThreeSchedulersTickingAndDyingAtRandomMakeOneJobPerFire() throws {
        // One connection per scheduler thread, as separate processes would have.
        nonisolated(unsafe) let stores = try (0..<3).map { _ in try store() }
        try add("* * * * *", misfire: .runAll, in: stores[0])
        var random = SystemRandomNumberGenerator()
        for minute in 1...10 {
            clock.advance(60)
            let survivors = (0..<3).filter { _ in Bool.random(using: &random) }
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                guard survivors.contains(index) || minute == 10 else { return }
                _ = try? Scheduler(store: stores[index], log: { _ in }).tick()
            }
        }
        XCTAssertEqual(try fireTimes(stores[0]), (1...10).map { 1_800_000_000 + Double($0) * 60 })
        if postgresURL == nil { XCTAssertEqual(try stores[0].integrityCheck(), "ok") }
    }

    /// The same race on PostgreSQL, where the schedulers' transactions really run in parallel.
    func testThreeSchedulersOnPostgreSQLMakeOneJobPerFire() throws {
        guard let server = ProcessInfo.processInfo.environment["KILN_TEST_POSTGRES"], !server.isEmpty else {
            throw XCTSkip("KILN_TEST_POSTGRES is not set (scripts/test.sh starts a server and sets it)")
        }
        let name = "kiln_sched_\(UInt32.random(in: 0...UInt32.max))"
        try PostgresConnection(url: server).execute("CREATE DATABASE \(name)")
        defer { try? PostgresConnection(url: server).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        postgresURL = server.replacingOccurrences(of: "/postgres", with: "/\(name)")
        try testThreeSchedulersTickingAndDyingAtRandomMakeOneJobPerFire()
    }
}
