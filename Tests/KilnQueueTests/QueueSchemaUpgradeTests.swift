import Foundation
import XCTest

@testable import KilnQueue

/// A queue written by the previous Kiln (schema 2: jobs and schedules, no split jobs) is
/// upgraded in place when this Kiln opens it: its jobs keep their state and data and read as
/// whole jobs, and split jobs can be queued beside them.
final class QueueSchemaUpgradeTests: XCTestCase {
    func testASchemaTwoSQLiteQueueIsUpgraded() throws {
        let fixture = try StoreFixture()
        let old = try SQLiteConnection(path: fixture.databasePath)
        for sql in QueueSchema.migrations.prefix(2) { try old.execute(sql) }
        try old.execute("PRAGMA user_version = 2")
        try old.execute(Self.oldJob)
        try old.execute(Self.oldSchedule)
        try assertUpgraded(
            fixture, version: { Int(try old.query("PRAGMA user_version").first?.first?.int ?? 0) })
    }

    func testASchemaTwoPostgresQueueIsUpgraded() throws {
        let fixture = try StoreFixture.postgres()
        let old = try PostgresConnection(url: try XCTUnwrap(fixture.postgresURL))
        try old.execute("CREATE TABLE kiln_schema (version INTEGER NOT NULL)")
        for sql in QueueSchema.migrations.prefix(2) { try old.execute(QueueSchema.postgres(sql)) }
        try old.execute("INSERT INTO kiln_schema (version) VALUES (1), (2)")
        try old.execute(Self.oldJob)
        try old.execute(Self.oldSchedule)
        try assertUpgraded(
            fixture,
            version: {
                let text = try old.query("SELECT MAX(version) FROM kiln_schema", []).first?.first ?? nil
                return text.flatMap { Int($0) } ?? 0
            })
    }

    /// A job as schema 2 stored it, half-way through its first attempt's backoff.
    static let oldJob = """
        INSERT INTO jobs (state, name, job_file, job_json, base_dir, variables, output, priority, run_at, attempt,
                          max_attempts, last_error, created_at)
        VALUES ('retryable', 'intro', '/jobs/intro.json', '{"kiln": 1}', '/jobs', '{"title":"Hello"}', '/out/intro.mp4',
                3, 0, 1, 5, 'disk full', 0)
        """

    /// A schedule from before schedules kept their roots and limits.
    static let oldSchedule = """
        INSERT INTO schedules (name, cron, time_zone, misfire, overlap, job_file, variables, priority, next_fire,
                               created_at)
        VALUES ('nightly', '0 2 * * *', 'UTC', 'run_once', 'skip', '/jobs/intro.json', '{}', 0, 100, 0)
        """

    private func assertUpgraded(_ fixture: StoreFixture, version: () throws -> Int) throws {
        let store = try fixture.store()
        XCTAssertEqual(try version(), QueueSchema.currentVersion)
        let job = try XCTUnwrap(try store.job(id: 1))
        XCTAssertEqual(job.state, .retryable)
        XCTAssertEqual(job.variables, ["title": "Hello"])
        XCTAssertEqual(job.lastError, "disk full")
        XCTAssertEqual([job.attempt, job.priority, job.segmentCount], [1, 3, 0])
        XCTAssertFalse(job.isSegment || job.isAssembly)
        XCTAssertNil(job.batchID, "queued before batches")
        let schedule = try XCTUnwrap(try store.schedule(named: "nightly"))
        XCTAssertEqual(schedule.confinement, ScheduleConfinement(), "confined by the command's roots alone")
        let roots = ScheduleConfinement(outputRoots: ["/out"], limits: ["frames": 10])
        var change = ScheduleChange()
        change.confinement = roots
        XCTAssertEqual(try store.updateSchedule(named: "nightly", change)?.confinement, roots)
        XCTAssertEqual(try fixture.store().schedule(named: "nightly")?.confinement, roots)
        let split = try store.enqueue([StoreContract.split()])[0]
        XCTAssertEqual(try store.segments(ofJob: split).count, 3)
        let claim = try XCTUnwrap(try store.claim(as: .test("w")))
        XCTAssertEqual(
            claim.job.id, split + 1, "the split job's first segment (priority 0) before the old job")
        XCTAssertTrue(try store.complete(claim))
        XCTAssertEqual(try fixture.store().job(id: 1)?.name, "intro", "reopening migrates nothing twice")
    }
}
