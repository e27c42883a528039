import Foundation
import KilnModel
import KilnQueue

/// The cron tick: any number of workers may run it at once. Each due schedule's fires are
/// planned by its misfire policy, skipped while its previous run is active (unless its overlap
/// policy allows), validated and enqueued with the schedule's variables; the store commits a
/// tick only once per schedule and fire, whoever else ticks.
public struct Scheduler {
    let store: any ScheduleStore & JobStore
    let log: (String) -> Void
    /// The worker's (or the command's) roots: when it has any, a fire is also validated under
    /// them, as the worker will render it.
    let roots: JobRoots
    /// The worker's limits: they apply over the schedule's own, as to every job a worker runs.
    let limits: ResourceLimits

    public init(
        store: any ScheduleStore & JobStore, roots: JobRoots = JobRoots(),
        limits: ResourceLimits = ResourceLimits(),
        log: @escaping (String) -> Void
    ) {
        self.store = store
        self.roots = roots
        self.limits = limits
        self.log = log
    }

    /// Returns the number of jobs this tick enqueued.
    @discardableResult
    public func tick() throws -> Int {
        var enqueued = 0
        for schedule in try store.dueSchedules() {
            guard let nextFire = schedule.nextFire else { continue }
            let cron: CronExpression
            do {
                cron = try schedule.expression()
            } catch {
                _ = try store.commitTick(schedule, jobs: [], nextFire: nil, note: "stopped: \(error)")
                continue
            }
            let now = store.now
            let plan = MisfirePlan.plan(cron, nextFire: nextFire, now: now, policy: schedule.misfire)
            var notes: [String] = []
            if plan.missed > 0 {
                notes.append("\(plan.missed) missed fire(s) skipped (\(schedule.misfire.rawValue))")
            }
            var fires = plan.fires
            if schedule.overlap == .skip, !fires.isEmpty, try store.hasActiveJobs(scheduleID: schedule.id) {
                notes.append("\(fires.count) fire(s) skipped: the previous run is still active")
                fires = []
            }
            var jobs: [EnqueueRequest] = []
            for fire in fires {
                do {
                    jobs += try requests(for: schedule, in: cron.timeZone, firedAt: fire, now: now)
                } catch {
                    notes.append("fire at \(QueueStore.iso(fire)) not enqueued: \(error)")
                }
            }
            let note = notes.isEmpty ? nil : notes.joined(separator: "; ")
            if try store.commitTick(schedule, jobs: jobs, nextFire: plan.nextFire, note: note) {
                enqueued += jobs.count
                if !jobs.isEmpty { log("schedule '\(schedule.name)': enqueued \(jobs.count) job(s)") }
                if let note { log("schedule '\(schedule.name)': \(note)") }
            }
        }
        return enqueued
    }

    /// `kiln schedule run`: one job now, made exactly as a fire at this moment would make it (its
    /// variables and priority, `{schedule}`, `{date}` and `{time}`), linked to the schedule like
    /// its fires. The cron's own fires are untouched, and so is the overlap policy: the run was
    /// asked for. Returns the job's id.
    public func fireNow(_ schedule: Schedule) throws -> Int64 {
        let cron = try schedule.expression()
        let now = store.now
        // One job file and no batch: one request, one id.
        return try store.enqueue(try requests(for: schedule, in: cron.timeZone, firedAt: now, now: now))[0]
    }

    /// The job of one fire, validated under the roots and limits the schedule was added with, and
    /// under the worker's own roots when it has any (a job it could not render is not queued).
    private func requests(for schedule: Schedule, in zone: TimeZone, firedAt fire: Double, now: Double)
        throws(JobSubmission.Failure) -> [EnqueueRequest]
    {
        var options = JobSubmission.Options()
        options.variables = schedule.variables
        options.priority = schedule.priority
        options.schedule = (schedule.id, fire, schedule.name)
        options.timeZone = zone
        do {
            options.limits = try ResourceLimits(
                overrides: schedule.confinement.limits.merging(limits.overrides) { $1 })
        } catch {
            throw JobSubmission.Failure(messages: ["schedule '\(schedule.name)': \(error)"], exitCode: 65)
        }
        let own = JobRoots(
            assetRoots: schedule.confinement.assetRoots, outputRoots: schedule.confinement.outputRoots,
            protectedFiles: roots.protectedFiles)
        if roots.hasExplicitRoots, own.hasExplicitRoots {
            options.roots = own
            _ = try JobSubmission.requests(jobFiles: [schedule.jobFile], options: options, now: now)
        }
        options.roots = roots.hasExplicitRoots ? roots : own
        return try JobSubmission.requests(jobFiles: [schedule.jobFile], options: options, now: now)
    }
}
