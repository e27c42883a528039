import Foundation

/// The queue's state machine over one database connection: the embedded SQLite file (WAL,
/// `synchronous=FULL`, every write in `BEGIN IMMEDIATE`) or a shared PostgreSQL server (claims by
/// `FOR UPDATE SKIP LOCKED`, times on the server's clock). One store per thread: it owns one
/// connection.
public final class QueueStore: JobStore {
    /// The database file, or the PostgreSQL URL without its password.
    public let path: String
    let db: any QueueDatabase
    let clock: any QueueClock
    public let policy: RetryPolicy

    /// The embedded queue in a SQLite file.
    public init(path: String, clock: any QueueClock = SystemClock(), policy: RetryPolicy = RetryPolicy())
        throws
    {
        try StoreLocation.check(databasePath: path)
        self.path = path
        self.clock = clock
        self.policy = policy
        let connection = try SQLiteConnection(path: path)
        db = connection
        // Every command and worker opens the queue through here, so a damaged file is refused
        // before anything writes to it (a write to a damaged b-tree spreads the damage).
        let verdict = try Self.quickCheck(connection)
        guard verdict == "ok" else { throw QueueError.malformed(path: path, verdict: verdict) }
        try QueueSchema.migrate(db)
    }

    /// `PRAGMA quick_check`: "ok", or what is damaged.
    static func quickCheck(_ connection: SQLiteConnection) throws -> String {
        do {
            return try connection.query("PRAGMA quick_check").map { $0.first?.string ?? "" }
                .joined(separator: "; ")
        } catch let error as SQLiteError where error.code & 0xFF == 11 || error.code & 0xFF == 26 {
            return error.message
        }
    }

    /// A queue on a PostgreSQL server shared by workers on many hosts. Without an injected clock,
    /// every time the store writes or compares is on the server's clock (`ServerClock`).
    public init(postgresURL url: String, clock: (any QueueClock)? = nil, policy: RetryPolicy = RetryPolicy())
        throws
    {
        let database = try PostgresDatabase(url: url)
        path = database.connection.redactedURL
        db = database
        self.clock = try clock ?? ServerClock(connection: database.connection)
        self.policy = policy
        try QueueSchema.migrate(db)
    }

    // MARK: - Enqueue

    public func enqueue(_ requests: [EnqueueRequest]) throws -> [Int64] {
        let now = clock.wall()
        return try db.write { () throws -> [Int64] in
            var ids: [Int64] = []
            var batch: Int64?
            for request in requests { ids.append(try insert(request, now: now, batch: &batch)) }
            return ids
        }
    }

    /// Inserts one job inside the caller's transaction, or returns the job its idempotency key
    /// or schedule fire already made. The first job inserted names the batch (`batch` is nil until
    /// then); every later one joins it.
    func insert(_ request: EnqueueRequest, now: Double, batch: inout Int64?) throws -> Int64 {
        if let existing = try existingID(for: request) { return existing }
        let runAt = request.runAt ?? now
        let waiting = runAt > now ? JobState.scheduled : JobState.available
        let split = request.segments.count > 1
        // A split job's own row waits (as `scheduled`) until its segments are completed.
        let id = try insertRow(
            request, state: split ? .scheduled : waiting, runAt: runAt, now: now,
            segment: split ? (parent: nil, index: nil, count: request.segments.count, frames: nil) : nil)
        let batchID = batch ?? id
        batch = batchID
        try db.query("UPDATE jobs SET batch_id = ? WHERE id = ?", [.integer(batchID), .integer(id)])
        let origin =
            request.schedule.map { " by schedule \($0.id) for its fire at \(Self.iso($0.fireTime))" } ?? ""
        let parts = split ? " in \(request.segments.count) segments" : ""
        try insertEvent(id, now, "enqueued\(origin)\(parts) (\(request.jobFile) → \(request.output))")
        guard request.segments.count > 1 else { return id }
        var piece = request
        piece.idempotencyKey = nil
        piece.schedule = nil
        let pieces: [Range<Int>?] = request.segments + (request.soundtrackTask ? [nil] : [])
        for (index, frames) in pieces.enumerated() {
            _ = try insertRow(
                piece, state: waiting, runAt: runAt, now: now,
                segment: (parent: id, index: index, count: request.segments.count, frames: frames))
        }
        try db.query(
            "UPDATE jobs SET stage = ? WHERE id = ?",
            [.text(Self.segmentStage(done: 0, of: pieces.count)), .integer(id)])
        return id
    }

    private func insertRow(
        _ request: EnqueueRequest, state: JobState, runAt: Double, now: Double,
        segment: (parent: Int64?, index: Int?, count: Int, frames: Range<Int>?)?
    ) throws -> Int64 {
        let rows = try db.query(
            """
            INSERT INTO jobs (state, name, job_file, job_json, base_dir, variables, output, priority,
                              run_at, max_attempts, idempotency_key, schedule_id, fire_time, created_at,
                              parent_id, segment_index, segment_count, frame_start, frame_end, draft)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """,
            [
                .text(state.rawValue),
                .text(request.name), .text(request.jobFile), .text(request.jobJSON),
                .text(request.baseDirectory), .text(VariablesJSON.encode(request.variables)),
                .text(request.output), .integer(Int64(request.priority)), .real(runAt),
                .integer(Int64(request.maxAttempts)), request.idempotencyKey.map { .text($0) } ?? .null,
                request.schedule.map { .integer($0.id) } ?? .null,
                request.schedule.map { .real($0.fireTime) } ?? .null, .real(now),
                segment?.parent.map { .integer($0) } ?? .null,
                segment?.index.map { .integer(Int64($0)) } ?? .null,
                .integer(Int64(segment?.count ?? 0)),
                segment?.frames.map { .integer(Int64($0.lowerBound)) } ?? .null,
                segment?.frames.map { .integer(Int64($0.upperBound)) } ?? .null,
                request.draft.map { .text($0) } ?? .null,
            ])
        guard let id = rows.first?.first?.int else {
            throw SQLiteError(code: -1, message: "INSERT returned no id", sql: nil)
        }
        return id
    }

    static func segmentStage(done: Int, of count: Int) -> String {
        done == count ? "segments done; assembly due" : "waiting for segments (\(done) of \(count) done)"
    }

    /// How a piece of a split job is named in its job's log and errors.
    static func pieceName(_ piece: QueuedJob) -> String {
        pieceName(
            index: piece.segmentIndex ?? 0, count: piece.segmentCount, isSoundtrack: piece.frameRange == nil)
    }

    static func pieceName(index: Int, count: Int, isSoundtrack: Bool) -> String {
        isSoundtrack ? "the soundtrack" : "segment \(index + 1) of \(count)"
    }

    /// Wall seconds as ISO 8601 (UTC), as the queue's logs and status print times.
    public static func iso(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds))
    }

    private func existingID(for request: EnqueueRequest) throws -> Int64? {
        if let key = request.idempotencyKey {
            return try db.query("SELECT id FROM jobs WHERE idempotency_key = ?", [.text(key)]).first?.first?
                .int
        }
        if let schedule = request.schedule {
            return try db.query(
                "SELECT id FROM jobs WHERE schedule_id = ? AND fire_time = ?",
                [.integer(schedule.id), .real(schedule.fireTime)]
            ).first?.first?.int
        }
        return nil
    }

    // MARK: - Workers

    public func claim(as worker: WorkerIdentity) throws -> Claim? {
        let now = clock.wall(), expires = clock.monotonic() + policy.leaseSeconds
        return try db.write { () throws -> Claim? in
            let lease: [SQLiteValue] = [
                .text(worker.name), .text(worker.host), .integer(Int64(worker.pid)),
                .integer(Int64(bitPattern: worker.processStart)), .text(clock.bootID), .real(expires),
            ]
            let assignments = """
                state = 'running', attempt = attempt + 1, lease_token = lease_token + 1, lease_owner = ?,
                lease_host = ?, lease_pid = ?, lease_pid_start = ?, lease_boot = ?, lease_expires = ?, progress = 0,
                stage = 'claimed'
                """
            // A split job is due once none of its segments is left unfinished.
            let due = """
                state IN ('scheduled', 'available', 'retryable') AND run_at <= ?
                AND NOT EXISTS (SELECT 1 FROM jobs AS part WHERE part.parent_id = jobs.id AND part.state <> 'completed')
                ORDER BY priority, run_at, id
                """
            let rows: [[SQLiteValue]]
            switch db.dialect {
            case .sqlite:
                // BEGIN IMMEDIATE already serialises writers: the oldest due job is ours.
                rows = try db.query(
                    """
                    UPDATE jobs SET \(assignments)
                    WHERE id = (SELECT id FROM jobs WHERE \(due) LIMIT 1)
                    RETURNING \(JobRow.columns)
                    """, lease + [.real(now)])
            case .postgres:
                // Concurrent claimers skip rows another transaction has locked; a CTE, never
                // `IN (SELECT … SKIP LOCKED)`, which can claim more rows than the limit.
                rows = try db.query(
                    """
                    WITH next AS (SELECT id FROM jobs WHERE \(due) LIMIT 1 FOR UPDATE SKIP LOCKED)
                    UPDATE jobs SET \(assignments) FROM next WHERE jobs.id = next.id
                    RETURNING \(JobRow.qualifiedColumns)
                    """, [.real(now)] + lease)
            }
            guard let row = rows.first else { return nil }
            let job = JobRow.decode(row)
            try db.query(
                """
                INSERT INTO attempts (job_id, number, lease_token, worker, host, pid, started_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(job.id), .integer(Int64(job.attempt)), .integer(job.leaseToken),
                    .text(worker.name),
                    .text(worker.host), .integer(Int64(worker.pid)), .real(now),
                ])
            try insertEvent(job.id, now, "attempt \(job.attempt) claimed by \(worker.name)")
            return Claim(job: job, leaseToken: job.leaseToken, attempt: job.attempt)
        }
    }

    public func heartbeat(_ claim: Claim, progress: Double, stage: String) throws -> HeartbeatOutcome {
        let expires = clock.monotonic() + policy.leaseSeconds
        return try db.write { () throws -> HeartbeatOutcome in
            let rows = try db.query(
                """
                UPDATE jobs SET lease_expires = ?, progress = ?, stage = ?
                WHERE id = ? AND lease_token = ? AND state = 'running' RETURNING cancel_requested
                """,
                [
                    .real(expires), .real(min(max(progress, 0), 1)), .text(stage), .integer(claim.job.id),
                    .integer(claim.leaseToken),
                ])
            guard let row = rows.first else { return .leaseLost }
            return .renewed(cancelRequested: row[0].int == 1)
        }
    }

    public func reportProgress(_ claim: Claim, _ progress: Double?) throws -> HeartbeatOutcome {
        let fence: [SQLiteValue] = [.integer(claim.job.id), .integer(claim.leaseToken)]
        let rows: [[SQLiteValue]]
        if let progress {
            rows = try db.write {
                try db.query(
                    """
                    UPDATE jobs SET progress = ?
                    WHERE id = ? AND lease_token = ? AND state = 'running' RETURNING cancel_requested
                    """, [.real(min(max(progress, 0), 1))] + fence)
            }
        } else {
            // Nothing new to store: a read, which costs the database no write.
            rows = try db.query(
                "SELECT cancel_requested FROM jobs WHERE id = ? AND lease_token = ? AND state = 'running'",
                fence)
        }
        guard let row = rows.first else { return .leaseLost }
        return .renewed(cancelRequested: row[0].int == 1)
    }

    /// What a job that is not running shows as its progress and stage: nothing under way.
    static let notUnderWay = "progress = 0, stage = NULL"

    public func complete(_ claim: Claim) throws -> Bool {
        try finish(claim, outcome: .completed, error: nil) { _ in
            "state = 'completed', finished_at = :now"
        }
    }

    public func fail(_ claim: Claim, error: String, permanent: Bool) throws -> Bool {
        let exhausted = claim.attempt >= claim.job.maxAttempts
        if permanent || exhausted {
            return try finish(claim, outcome: .discarded, error: error) { _ in
                "state = 'discarded', finished_at = :now"
            }
        }
        let delay = policy.backoff(afterAttempt: claim.attempt)
        return try finish(claim, outcome: .failed, error: error) { _ in
            "state = 'retryable', run_at = :now + \(delay)"
        }
    }

    public func release(_ claim: Claim, reason: String) throws -> Bool {
        // The attempt is not charged: a worker asked to stop did nothing wrong.
        try finish(claim, outcome: .interrupted, error: reason) { _ in
            "state = 'available', attempt = attempt - 1, run_at = :now"
        }
    }

    public func acknowledgeCancel(_ claim: Claim) throws -> Bool {
        try finish(claim, outcome: .cancelled, error: nil) { _ in
            "state = 'cancelled', finished_at = :now"
        }
    }

    /// One fenced transition out of `running`, with the attempt row closed in the same transaction.
    /// The stage goes (it says what a running attempt is doing), and the progress becomes what the
    /// new state means: all of it when completed, none when the job waits again or has ended
    /// without output; a split job waiting again shows its segments instead.
    private func finish(
        _ claim: Claim, outcome: AttemptRecord.Outcome, error: String?, assignments: (Double) -> String
    ) throws -> Bool {
        let now = clock.wall()
        return try db.write { () throws -> Bool in
            let set = assignments(now).replacingOccurrences(of: ":now", with: "\(now)")
            try db.query(
                """
                UPDATE jobs SET \(set), progress = ?, stage = NULL, last_error = COALESCE(?, last_error),
                       lease_owner = NULL, lease_expires = NULL
                WHERE id = ? AND lease_token = ? AND state = 'running'
                """,
                [
                    .real(outcome == .completed ? 1 : 0), error.map { .text($0) } ?? .null,
                    .integer(claim.job.id), .integer(claim.leaseToken),
                ])
            guard db.changes == 1 else { return false }
            if claim.job.isAssembly { try showSegments(of: claim.job.id) }
            try closeAttempt(claim.job.id, token: claim.leaseToken, at: now, outcome: outcome, error: error)
            try insertEvent(
                claim.job.id, now,
                "attempt \(claim.attempt) \(outcome.rawValue)" + (error.map { ": \($0)" } ?? ""))
            if let parent = claim.job.parentID {
                let state = try db.query("SELECT state FROM jobs WHERE id = ?", [.integer(claim.job.id)])
                    .first?.first?.string
                try segmentEnded(
                    claim.job, parent: parent, state: state.flatMap(JobState.init(rawValue:)), now: now)
            }
            return true
        }
    }

    /// What a segment's end means for its job: progress when completed; when discarded or
    /// cancelled, the whole job ends the same way and the other segments stop.
    func segmentEnded(_ segment: QueuedJob, parent: Int64, state: JobState?, now: Double) throws {
        let piece = Self.pieceName(segment)
        switch state {
        case .completed:
            let (done, total) = try showSegments(of: parent)
            try insertEvent(parent, now, "\(piece) completed (\(done) of \(total) done)")
        case .discarded, .cancelled:
            try endFamily(parent, as: state!, reason: "\(piece) was \(state!.rawValue)", now: now)
        default:
            break
        }
    }

    /// A waiting split job's progress and stage are its segments': the fraction completed, and how
    /// many are done. Returns (done, total).
    @discardableResult
    func showSegments(of parent: Int64) throws -> (done: Int, total: Int) {
        let counts = try db.query(
            "SELECT COUNT(*), SUM(CASE WHEN state = 'completed' THEN 1 ELSE 0 END) FROM jobs WHERE parent_id = ?",
            [.integer(parent)]
        ).first
        let total = Int(counts?[0].int ?? 1), done = Int(counts?[1].int ?? 0)
        try db.query(
            "UPDATE jobs SET progress = ?, stage = ? WHERE id = ? AND state IN ('scheduled', 'available', 'retryable')",
            [
                .real(Double(done) / Double(max(1, total))),
                .text(Self.segmentStage(done: done, of: total)),
                .integer(parent),
            ])
        return (done, total)
    }

    /// Ends a split job and stops its unfinished segments: waiting ones end at once, running ones
    /// are asked to stop (their workers see it within a second).
    func endFamily(_ parent: Int64, as state: JobState, reason: String, now: Double) throws {
        try db.query(
            """
            UPDATE jobs SET state = ?, finished_at = ?, last_error = ?, \(Self.notUnderWay)
            WHERE id = ? AND state IN ('scheduled', 'available', 'retryable')
            """, [.text(state.rawValue), .real(now), .text(reason), .integer(parent)])
        if db.changes == 1 { try insertEvent(parent, now, "\(state.rawValue): \(reason)") }
        try db.query(
            """
            UPDATE jobs SET state = 'cancelled', finished_at = ?, last_error = ?, \(Self.notUnderWay)
            WHERE parent_id = ? AND state IN ('scheduled', 'available', 'retryable')
            """, [.real(now), .text("job \(parent) \(state.rawValue): \(reason)"), .integer(parent)])
        try db.query(
            "UPDATE jobs SET cancel_requested = 1 WHERE parent_id = ? AND state = 'running'",
            [.integer(parent)])
    }

    /// The job a command about `id` is about: a segment stands for its whole job.
    private func family(of id: Int64) throws -> Int64 {
        try db.query("SELECT parent_id FROM jobs WHERE id = ?", [.integer(id)]).first?.first?.int ?? id
    }

    private func closeAttempt(
        _ jobID: Int64, token: Int64, at now: Double, outcome: AttemptRecord.Outcome, error: String?
    ) throws {
        try db.query(
            "UPDATE attempts SET ended_at = ?, outcome = ?, error = ? WHERE job_id = ? AND lease_token = ? AND ended_at IS NULL",
            [
                .real(now), .text(outcome.rawValue), error.map { .text($0) } ?? .null, .integer(jobID),
                .integer(token),
            ])
    }

    // MARK: - Operators

    public func cancel(id: Int64) throws -> Bool {
        let now = clock.wall()
        return try db.write { () throws -> Bool in
            let id = try family(of: id)
            try db.query(
                """
                UPDATE jobs SET state = 'cancelled', finished_at = ?, \(Self.notUnderWay)
                WHERE id = ? AND state IN ('scheduled', 'available', 'retryable')
                """, [.real(now), .integer(id)])
            if db.changes == 1 {
                try insertEvent(id, now, "cancelled")
                try endFamily(id, as: .cancelled, reason: "cancelled", now: now)
                return true
            }
            try db.query(
                "UPDATE jobs SET cancel_requested = 1 WHERE id = ? AND state = 'running'", [.integer(id)])
            guard db.changes == 1 else { return false }
            try insertEvent(id, now, "cancel requested; its worker stops it within a second")
            return true
        }
    }

    public func retry(id: Int64) throws -> Bool {
        let now = clock.wall()
        return try db.write { () throws -> Bool in
            let id = try family(of: id)
            let split =
                (try db.query("SELECT segment_count FROM jobs WHERE id = ?", [.integer(id)])
                    .first?.first?.int ?? 0) > 1
            try db.query(
                """
                UPDATE jobs SET state = ?, run_at = ?, finished_at = NULL, cancel_requested = 0,
                       max_attempts = attempt + ?, \(Self.notUnderWay)
                WHERE id = ? AND state IN ('retryable', 'discarded', 'cancelled', 'completed')
                """,
                [
                    .text(split ? "scheduled" : "available"), .real(now),
                    .integer(Int64(RetryPolicy.defaultAttempts)), .integer(id),
                ])
            guard db.changes == 1 else { return false }
            // Completed segments are kept: their files are reused; only the others run again.
            try db.query(
                """
                UPDATE jobs SET state = 'available', run_at = ?, finished_at = NULL, cancel_requested = 0,
                       max_attempts = attempt + ?, \(Self.notUnderWay)
                WHERE parent_id = ? AND state IN ('retryable', 'discarded', 'cancelled')
                """, [.real(now), .integer(Int64(RetryPolicy.defaultAttempts)), .integer(id)])
            if split { try showSegments(of: id) }
            try insertEvent(id, now, "retry requested")
            return true
        }
    }

    public func currentTime() -> Double { clock.wall() }

    public func takeUnannouncedEnds(since: Double, limit: Int) throws -> [QueuedJob] {
        let unannounced = """
            finished_at IS NOT NULL AND (announced_at IS NULL OR announced_at < finished_at)
            """
        return try db.write { () throws -> [QueuedJob] in
            // The condition is repeated in the UPDATE: PostgreSQL re-checks it on a row another
            // worker announced meanwhile, so that worker's announcement is not made twice.
            try db.query(
                """
                UPDATE jobs SET announced_at = finished_at
                WHERE id IN (
                    SELECT id FROM jobs
                    WHERE parent_id IS NULL AND state IN ('completed', 'discarded', 'cancelled')
                      AND finished_at >= ? AND \(unannounced)
                    ORDER BY finished_at, id LIMIT ?)
                  AND \(unannounced)
                RETURNING \(JobRow.columns)
                """, [.real(since), .integer(Int64(max(1, limit)))]
            ).map(JobRow.decode).sorted { ($0.finishedAt ?? 0, $0.id) < ($1.finishedAt ?? 0, $1.id) }
        }
    }

    public func reap() throws -> Int {
        let now = clock.wall(), monotonic = clock.monotonic(), boot = clock.bootID
        let host = ProcessInfo.processInfo.hostName
        return try db.write { () throws -> Int in
            let running = try db.query(
                """
                SELECT id, lease_token, attempt, max_attempts, lease_expires, lease_boot, lease_host, lease_pid,
                       lease_pid_start, parent_id, segment_index, segment_count, frame_start, cancel_requested
                FROM jobs WHERE state = 'running'
                """)
            var reclaimed = 0
            for row in running {
                let id = row[0].int!, token = row[1].int!, attempt = row[2].int!, maximum = row[3].int!
                // SQLite leases are on this host's boot-time clock, which restarts with a reboot;
                // PostgreSQL leases are on the server's clock, shared by every host.
                let onThisTimeline = db.dialect == .postgres || row[5].string == boot
                let expired = !onThisTimeline || (row[4].double ?? 0) < monotonic
                // On this host, a lease whose process is gone (or from before a reboot) is dead now.
                let ownerGone =
                    row[6].string == host
                    && (row[5].string != boot
                        || !ProcessTable.isAlive(
                            pid: Int32(row[7].int ?? 0), start: UInt64(bitPattern: row[8].int ?? 0)))
                guard expired || ownerGone else { continue }
                let why = ownerGone ? "worker process died" : "lease expired"
                if row[13].int == 1 {
                    // Its cancel was asked for before the worker died: it ends here, not in a new render.
                    try db.query(
                        """
                        UPDATE jobs SET state = 'cancelled', finished_at = ?, lease_owner = NULL, lease_expires = NULL,
                               \(Self.notUnderWay)
                        WHERE id = ? AND lease_token = ? AND state = 'running'
                        """, [.real(now), .integer(id), .integer(token)])
                    guard db.changes == 1 else { continue }
                    try closeAttempt(id, token: token, at: now, outcome: .crashed, error: why)
                    try insertEvent(
                        id, now, "attempt \(attempt) crashed (\(why)); cancelled, as was requested")
                    if row[9].int == nil && (row[11].int ?? 0) > 1 {
                        try endFamily(id, as: .cancelled, reason: "cancelled", now: now)
                    }
                    reclaimed += 1
                    continue
                }
                let exhausted = attempt >= maximum
                try db.query(
                    """
                    UPDATE jobs SET state = ?, run_at = ?, finished_at = ?, lease_owner = NULL, lease_expires = NULL,
                           last_error = ?, \(Self.notUnderWay)
                    WHERE id = ? AND lease_token = ? AND state = 'running'
                    """,
                    [
                        .text(exhausted ? "discarded" : "available"), .real(now),
                        exhausted ? .real(now) : .null,
                        .text(ownerGone ? "worker process died" : "lease expired"), .integer(id),
                        .integer(token),
                    ])
                guard db.changes == 1 else { continue }
                try closeAttempt(
                    id, token: token, at: now, outcome: .crashed,
                    error: ownerGone ? "worker process died" : "lease expired")
                // A split job's own row (its assembly attempt was reaped) waits showing its segments.
                if row[9].int == nil && (row[11].int ?? 0) > 1 { try showSegments(of: id) }
                try insertEvent(
                    id, now,
                    "attempt \(attempt) crashed (\(ownerGone ? "worker process died" : "lease expired")); "
                        + (exhausted ? "discarded: no attempts left" : "available again"))
                if exhausted, let parent = row[9].int {
                    let piece = Self.pieceName(
                        index: Int(row[10].int ?? 0), count: Int(row[11].int ?? 0),
                        isSoundtrack: row[12].int == nil)
                    try endFamily(parent, as: .discarded, reason: "\(piece) was discarded", now: now)
                }
                reclaimed += 1
            }
            return reclaimed
        }
    }

    public func prune(endedBefore before: Double) throws -> Int {
        try db.write { () throws -> Int in
            // Segments go with their job (they end before it, so they are never pruned alone).
            let ended =
                "parent_id IS NULL AND state IN ('completed', 'discarded', 'cancelled') AND finished_at < ?"
            try db.query(
                "DELETE FROM jobs WHERE parent_id IN (SELECT id FROM jobs WHERE \(ended))", [.real(before)])
            try db.query("DELETE FROM jobs WHERE \(ended)", [.real(before)])
            return db.changes
        }
    }

    // MARK: - Reading

    public func job(id: Int64) throws -> QueuedJob? {
        try db.query("SELECT \(JobRow.columns) FROM jobs WHERE id = ?", [.integer(id)]).first.map(
            JobRow.decode)
    }

    public func unrenewedLeaseCount() throws -> Int {
        let monotonic = clock.monotonic(), boot = clock.bootID
        // A live owner renews every heartbeat, keeping its lease at least this far ahead.
        let renewedHorizon = monotonic + policy.leaseSeconds - 2 * policy.heartbeatSeconds
        let running = try db.query("SELECT lease_expires, lease_boot FROM jobs WHERE state = 'running'")
        return running.filter { row in
            let onThisTimeline = db.dialect == .postgres || row[1].string == boot
            return !onThisTimeline || (row[0].double ?? 0) < renewedHorizon
        }.count
    }

    public func jobs(states: [JobState]?) throws -> [QueuedJob] {
        let filter = states.map { list in
            "WHERE state IN (" + list.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
        }
        return try db.query("SELECT \(JobRow.columns) FROM jobs \(filter ?? "") ORDER BY id").map(
            JobRow.decode)
    }

    public func jobs(inBatch batch: Int64) throws -> [QueuedJob] {
        // Any job of the batch names it, as `kiln cancel --batch 7` promises ("every job queued
        // together with job 7"), not only the first one whose id the batch carries.
        try db.query(
            "SELECT \(JobRow.columns) FROM jobs WHERE batch_id = (SELECT batch_id FROM jobs WHERE id = ?) ORDER BY id",
            [.integer(batch)]
        ).map(JobRow.decode)
    }

    public func segments(ofJob id: Int64) throws -> [QueuedJob] {
        try db.query(
            "SELECT \(JobRow.columns) FROM jobs WHERE parent_id = ? ORDER BY segment_index", [.integer(id)]
        ).map(JobRow.decode)
    }

    public func attempts(jobID: Int64) throws -> [AttemptRecord] {
        try db.query(
            """
            SELECT job_id, number, lease_token, worker, host, pid, started_at, ended_at, outcome, error
            FROM attempts WHERE job_id = ? ORDER BY number, started_at
            """, [.integer(jobID)]
        ).map { row in
            AttemptRecord(
                jobID: row[0].int!, number: Int(row[1].int!), leaseToken: row[2].int!,
                worker: row[3].string ?? "",
                host: row[4].string ?? "", pid: Int32(row[5].int ?? 0), startedAt: row[6].double ?? 0,
                endedAt: row[7].double, outcome: row[8].string.flatMap(AttemptRecord.Outcome.init(rawValue:)),
                error: row[9].string)
        }
    }

    public func events(jobID: Int64) throws -> [(at: Double, message: String)] {
        try db.query("SELECT at, message FROM events WHERE job_id = ? ORDER BY id", [.integer(jobID)]).map {
            (at: $0[0].double ?? 0, message: $0[1].string ?? "")
        }
    }

    public func log(jobID: Int64, _ message: String) throws {
        let now = clock.wall()
        try db.write { () throws in try insertEvent(jobID, now, message) }
    }

    /// `PRAGMA integrity_check`'s verdict ("ok" when sound); SQLite only.
    public func integrityCheck() throws -> String {
        guard db.dialect == .sqlite else { return "not applicable to PostgreSQL" }
        return try db.query("PRAGMA integrity_check").map { $0.first?.string ?? "" }.joined(separator: "; ")
    }

    private func insertEvent(_ jobID: Int64, _ at: Double, _ message: String) throws {
        try db.query(
            "INSERT INTO events (job_id, at, message) VALUES (?, ?, ?)",
            [.integer(jobID), .real(at), .text(message)])
    }
}
