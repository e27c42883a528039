import Foundation

/// What to do with fires missed while no scheduler ran (queue.md).
public enum MisfirePolicy: String, Sendable, CaseIterable {
    /// One run for the latest missed fire, if it is within the grace period.
    case runOnce = "run_once"
    /// Only fires that are on time (within a minute) run.
    case skip
    /// Every missed fire runs, the latest `MisfirePlan.runAllCap` of them.
    case runAll = "run_all"
}

/// Whether a fire may start while the schedule's previous run is still queued or running.
public enum OverlapPolicy: String, Sendable, CaseIterable {
    case skip, allow
}

/// A recurring render.
public struct Schedule: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var cron: String
    public var timeZone: String
    public var misfire: MisfirePolicy
    public var overlap: OverlapPolicy
    public var jobFile: String
    public var variables: [String: String]
    public var priority: Int
    public var paused: Bool
    /// Wall seconds; nil when the expression never fires again.
    public var nextFire: Double?
    public var lastFire: Double?
    /// What the last tick did that a user should know (skipped fires, an invalid job).
    public var lastNote: String?

    public func expression() throws(CronExpression.ParseError) -> CronExpression {
        guard let zone = TimeZone(identifier: timeZone) else {
            throw CronExpression.ParseError(message: "unknown time zone '\(timeZone)'")
        }
        return try CronExpression(cron, timeZone: zone)
    }
}

/// Which of a schedule's due fires become jobs, and where the schedule goes next. The next fire
/// is computed from the last due fire, never from the clock, so a clock set back cannot fire
/// the same time twice, and one set forward meets the misfire policy.
public struct MisfirePlan: Sendable, Equatable {
    public static let runOnceGrace = 3600.0
    public static let onTimeTolerance = 60.0
    public static let runAllCap = 100

    public var fires: [Double]
    public var missed: Int
    public var nextFire: Double?

    public static func plan(_ cron: CronExpression, nextFire: Double, now: Double, policy: MisfirePolicy)
        -> MisfirePlan
    {
        var due: [Double] = []
        var fire: Double? = nextFire
        var skippedBeyondList = 0
        while let f = fire, f <= now {
            if due.count == 10_000 {
                due.removeFirst()
                skippedBeyondList += 1
            }
            due.append(f)
            fire = cron.next(after: f)
        }
        let chosen: [Double]
        switch policy {
        case .runOnce: chosen = due.last.map { now - $0 <= runOnceGrace ? [$0] : [] } ?? []
        case .skip: chosen = due.filter { now - $0 <= onTimeTolerance }.suffix(1)
        case .runAll: chosen = Array(due.suffix(runAllCap))
        }
        return MisfirePlan(
            fires: chosen, missed: due.count + skippedBeyondList - chosen.count, nextFire: fire)
    }
}

/// Schedule storage, next to the jobs it creates.
public protocol ScheduleStore: AnyObject {
    /// Wall seconds on the store's clock.
    var now: Double { get }
    func addSchedule(
        name: String, cron: CronExpression, misfire: MisfirePolicy, overlap: OverlapPolicy, jobFile: String,
        variables: [String: String], priority: Int
    ) throws -> Schedule
    func schedules() throws -> [Schedule]
    func schedule(named name: String) throws -> Schedule?
    func removeSchedule(named name: String) throws -> Bool
    /// Pausing stops fires; resuming starts again from the next fire after now.
    func setPaused(_ paused: Bool, named name: String) throws -> Bool
    func dueSchedules() throws -> [Schedule]
    /// True while a job of this schedule has not ended.
    func hasActiveJobs(scheduleID: Int64) throws -> Bool
    /// Commits one tick for one schedule: inserts the fire's jobs (one per (schedule, fire
    /// time), whoever else tries) and moves `next_fire` on, only if no other scheduler has
    /// already moved it from `schedule.nextFire`. False: another scheduler handled this tick.
    func commitTick(_ schedule: Schedule, jobs: [EnqueueRequest], nextFire: Double?, note: String?) throws
        -> Bool
}
