/// The queue's one storage contract. `QueueStore` implements it once, over SQLite or PostgreSQL
/// (a `QueueDatabase` each), so both run the same state machine and pass the same test suite.
/// Every worker write is fenced by the claim's lease token: when it changes nothing the lease was
/// lost, and the worker must stop.
public protocol JobStore: AnyObject {
    /// Inserts all or none; a request whose idempotency key (or schedule fire) already exists
    /// returns the existing job's id instead of a new one.
    func enqueue(_ requests: [EnqueueRequest]) throws -> [Int64]
    /// Takes the most urgent due job, starting an attempt; nil when none is due.
    func claim(as worker: WorkerIdentity) throws -> Claim?
    /// Renews the lease and stores progress.
    func heartbeat(_ claim: Claim, progress: Double, stage: String) throws -> HeartbeatOutcome
    /// Stores progress (nil: only looks) without renewing the lease, and tells whether the lease
    /// is still held and a cancel was requested: one fenced statement, cheap enough to run every
    /// second between heartbeats. `.renewed` here means held, not extended.
    func reportProgress(_ claim: Claim, _ progress: Double?) throws -> HeartbeatOutcome
    /// Marks the job completed (after its output was renamed into place). False: lease lost.
    func complete(_ claim: Claim) throws -> Bool
    /// Records a failed attempt: permanent errors discard at once; transient ones retry with
    /// backoff until the attempts run out. False: lease lost.
    func fail(_ claim: Claim, error: String, permanent: Bool) throws -> Bool
    /// Gives the job back without charging the attempt (the worker was asked to stop).
    func release(_ claim: Claim, reason: String) throws -> Bool
    /// The worker stopped because the job was cancelled.
    func acknowledgeCancel(_ claim: Claim) throws -> Bool
    /// Cancels a waiting job at once, or asks a running job's worker to stop (it looks about twice
    /// a second). False when the job had already ended.
    func cancel(id: Int64) throws -> Bool
    /// Puts an ended or retryable job back to available with fresh attempts.
    func retry(id: Int64) throws -> Bool
    /// Reclaims running jobs whose lease expired or whose owner process is gone; returns how many.
    func reap() throws -> Int
    /// Running jobs whose lease has gone unrenewed for two heartbeats (or is on another boot's
    /// clock): their worker is most likely dead, and the reaper will reclaim them once the lease
    /// expires. `worker --drain` waits for them instead of calling the queue drained.
    func unrenewedLeaseCount() throws -> Int
    /// Deletes terminal jobs that ended before `before` (wall seconds); returns how many.
    func prune(endedBefore before: Double) throws -> Int
    func job(id: Int64) throws -> QueuedJob?
    func jobs(states: [JobState]?) throws -> [QueuedJob]
    /// The jobs one `kiln enqueue` (or schedule fire) queued together, named by any one of
    /// them (its id); never segments.
    func jobs(inBatch batch: Int64) throws -> [QueuedJob]
    /// A split job's segment tasks, in frame order.
    func segments(ofJob id: Int64) throws -> [QueuedJob]
    func attempts(jobID: Int64) throws -> [AttemptRecord]
    /// Lines for `kiln logs`, oldest first: (wall seconds, message).
    func events(jobID: Int64) throws -> [(at: Double, message: String)]
    func log(jobID: Int64, _ message: String) throws
    /// The store's clock (the server's for PostgreSQL): what `finished_at` is measured on.
    func currentTime() -> Double
    /// Jobs (not their segments) that ended at or after `since` and whose end has not been
    /// announced, now marked announced: each end goes to exactly one caller, however many
    /// workers ask at once. At most `limit`, oldest first.
    func takeUnannouncedEnds(since: Double, limit: Int) throws -> [QueuedJob]
}
