import Foundation

/// Schedule storage, next to the jobs it creates.
public protocol ScheduleStore: AnyObject {
    /// Wall seconds on the store's clock.
    var now: Double { get }
    /// Throws `ScheduleNameTaken` for a name in use.
    func addSchedule(
        name: String, cron: CronExpression, misfire: MisfirePolicy, overlap: OverlapPolicy, jobFile: String,
        variables: [String: String], priority: Int, confinement: ScheduleConfinement
    ) throws -> Schedule
    /// Changes a schedule in place, keeping its id and the jobs its fires made; nil when there
    /// is no schedule of that name.
    func updateSchedule(named name: String, _ change: ScheduleChange) throws -> Schedule?
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
