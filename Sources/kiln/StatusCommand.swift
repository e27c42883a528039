import Foundation
import KilnCommandLine
import KilnQueue

enum StatusCommand: KilnSubcommand {
    static let json = OptionSpec.flag("--json", help: "print the same as JSON (an array, or one object)")
    static let state = OptionSpec(
        "--state", kind: .string, placeholder: "S[,S…]",
        help: "only jobs in these states: " + JobState.allCases.map(\.rawValue).joined(separator: ", "))
    static let watch = OptionSpec.flag(
        "--watch", short: "w",
        help: "show it again every --interval seconds until Ctrl-C (with ID: until the job ends); on a "
            + "terminal the screen is redrawn, otherwise a listing is printed each time it changes "
            + "(with --json: one JSON value per line)")
    static let interval = OptionSpec(
        "--interval", kind: .double(minimum: 0.1), placeholder: "SECONDS", default: .double(1),
        help: "how often --watch looks")
    static let spec = CommandSpec(
        "status", summary: "jobs with state, progress, attempts, output and errors",
        description: """
            Lists queued jobs (id, state, progress, attempts, output), or one job in detail with its
            attempts, batch and last error. With --watch, keeps the listing current.
            """,
        options: [json, state, watch, interval, .queue],
        positionals: [
            PositionalSpec("ID", kind: PositionalSpec.jobID.kind, count: .optional, help: "one job in detail")
        ])

    /// One look at the queue: what to print, and whether a watched job has ended.
    struct Snapshot: Equatable {
        var lines: [String] = []
        /// Said on stderr once (or as a line while watching): "no jobs".
        var note: String?
        var ended = false
        var exitCode = ExitCode.ok
    }

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let store = try QueueLocation.open(try QueueLocation.databasePath(args))
        var id: Int64?
        if let idText = args.positionals.first {
            guard let parsed = Int64(idText) else { throw args.usageError("status takes at most one job id") }
            id = parsed
        }
        let states = try parseStates(args)
        let asJSON = args.flag(json)
        guard args.flag(watch) else {
            let snapshot = try look(store, id: id, states: states, json: asJSON, compact: false)
            if let note = snapshot.note { Output.stderr(note) }
            emit(snapshot.lines, json: asJSON)
            return snapshot.exitCode
        }
        installInterruptHandlers()
        let seconds = args.double(interval) ?? 1
        let terminal = isatty(1) == 1
        var previous: Snapshot?
        while interruption.cancelledBySignal == nil {
            let snapshot = try look(store, id: id, states: states, json: asJSON, compact: !terminal)
            if snapshot.exitCode != ExitCode.ok {
                Output.stderr(snapshot.note ?? "")
                return snapshot.exitCode
            }
            let lines = snapshot.lines + (snapshot.note.map { [$0] } ?? [])
            if terminal {
                let clock = Date().formatted(.iso8601.time(includingFractionalSeconds: false))
                print("\u{1B}[H\u{1B}[2J", terminator: "")
                Output.line(
                    "kiln status, every \(String(format: "%g", seconds)) s (Ctrl-C to stop)  \(clock)")
                emit(lines, json: asJSON)
            } else if snapshot != previous {
                if previous != nil && !asJSON { Output.line("") }
                emit(lines, json: asJSON)
            }
            fflush(nil)  // every stream: a pipe must see each listing as it is printed
            previous = snapshot
            if snapshot.ended { return snapshot.exitCode }
            // In short steps, so Ctrl-C is answered at once.
            let until = ProcessInfo.processInfo.systemUptime + seconds
            while interruption.cancelledBySignal == nil && ProcessInfo.processInfo.systemUptime < until {
                Thread.sleep(forTimeInterval: min(0.1, seconds))
            }
        }
        return 128 + (interruption.cancelledBySignal ?? 0)
    }

    /// JSON is printed as it is (it escapes control characters itself); text rows are escaped.
    static func emit(_ lines: [String], json: Bool) {
        for line in lines {
            if json { print(line) } else { Output.line(line) }
        }
    }

    static func parseStates(_ args: ParsedArguments) throws -> [JobState]? {
        try args.string(state).map { try StateFilter.parse($0, allowed: JobState.allCases, args) }
    }

    /// The listing (or one job's details) as it is now; `compact` JSON is one line per value.
    static func look(_ store: QueueStore, id: Int64?, states: [JobState]?, json: Bool, compact: Bool) throws
        -> Snapshot
    {
        var snapshot = Snapshot()
        let now = store.currentTime()
        if let id {
            guard let job = try store.job(id: id) else {
                return Snapshot(
                    note: "kiln: error: no job \(id) in the queue", ended: true, exitCode: ExitCode.noInput)
            }
            snapshot.ended = job.state.isTerminal
            let attempts = try store.attempts(jobID: id)
            if json {
                snapshot.lines = [
                    try jsonText(
                        describe(job, attempts: attempts, now: now), compact: compact)
                ]
            } else {
                let batchSize =
                    try job.batchID.map { batch in
                        try store.jobs(inBatch: batch).count
                    } ?? 0
                snapshot.lines = details(
                    job, attempts: attempts, batchSize: batchSize,
                    remaining: remainingSeconds(job, attempts: attempts, now: now))
            }
            return snapshot
        }
        let jobs = try store.jobs(states: states)
        if json {
            snapshot.lines = [
                try jsonText(
                    try jobs.map {
                        describe($0, attempts: try store.attempts(jobID: $0.id), now: now)
                    },
                    compact: compact)
            ]
            return snapshot
        }
        guard !jobs.isEmpty else {
            snapshot.note =
                "kiln: no jobs"
                + (states.map { " in state " + $0.map(\.rawValue).joined(separator: ",") } ?? "")
            return snapshot
        }
        // Columns as wide as their widest cell, so a long name moves the next column rather than
        // breaking it; a name past 40 characters is cut in the middle (whole in `status ID`).
        var rows = [["ID", "STATE", "PROGRESS", "ATTEMPTS", "JOB", "OUTPUT"]]
        for job in jobs {
            let remaining =
                job.state == .running
                ? remainingSeconds(job, attempts: try store.attempts(jobID: job.id), now: now)
                : nil
            rows.append([
                "\(job.id)", displayState(job),
                String(format: "%.0f%%", job.progress * 100)
                    + (remaining.map { " ~" + ProgressReporter.clock($0) } ?? ""),
                "\(job.attempt)/\(job.maxAttempts)", Table.shortened(displayName(job), to: 40), job.output,
            ])
        }
        snapshot.lines += Table.aligned(rows)
        return snapshot
    }

    /// A split job's own row is `scheduled` in the store while it waits for its segments.
    static func displayState(_ job: QueuedJob) -> String {
        job.isAssembly && job.state == .scheduled && job.progress < 1 ? "waiting" : job.state.rawValue
    }

    /// What a running attempt is doing, or a waiting split job's segments; in any other state a
    /// stage is a leftover (rows written before stages were cleared on every state change).
    static func shownStage(_ job: QueuedJob) -> String? {
        job.state == .running || (job.isAssembly && !job.state.isTerminal) ? job.stage : nil
    }

    static func displayName(_ job: QueuedJob) -> String {
        guard let parent = job.parentID, let index = job.segmentIndex else { return job.name }
        return job.isSoundtrack
            ? "  \(parent) soundtrack" : "  \(parent) seg \(index + 1)/\(job.segmentCount)"
    }

    /// A time for JSON: ISO 8601, or null.
    static func iso(_ seconds: Double?) -> Any {
        seconds.map(QueueStore.iso) ?? NSNull()
    }

    /// Seconds left for a running job at the pace of its current attempt; nil when it is not
    /// running or has not moved yet (an estimate from under 1 % is noise).
    static func remainingSeconds(_ job: QueuedJob, attempts: [AttemptRecord], now: Double) -> Double? {
        guard job.state == .running, job.progress >= 0.01, job.progress < 1,
            let started = attempts.last(where: { $0.endedAt == nil })?.startedAt, now > started
        else { return nil }
        return (now - started) / job.progress * (1 - job.progress)
    }

    static func describe(_ job: QueuedJob, attempts: [AttemptRecord], now: Double) -> [String: Any] {
        [
            "eta": remainingSeconds(job, attempts: attempts, now: now).map { ($0 * 10).rounded() / 10 }
                ?? NSNull(),
            "id": job.id, "state": job.state.rawValue, "name": job.name, "job": job.jobFile,
            "output": job.output,
            "progress": (job.progress * 1000).rounded() / 10, "stage": shownStage(job) ?? NSNull(),
            "attempt": job.attempt, "maxAttempts": job.maxAttempts, "priority": job.priority,
            "runAt": iso(job.runAt), "createdAt": iso(job.createdAt), "finishedAt": iso(job.finishedAt),
            "cancelRequested": job.cancelRequested, "variables": job.variables,
            "error": job.lastError ?? NSNull(), "idempotencyKey": job.idempotencyKey ?? NSNull(),
            "scheduleID": job.scheduleID ?? NSNull(), "fireTime": iso(job.fireTime),
            "parentID": job.parentID ?? NSNull(), "segmentIndex": job.segmentIndex ?? NSNull(),
            "segmentCount": job.segmentCount, "batch": job.batchID ?? NSNull(),
            "draft": job.draft ?? NSNull(),
            "frames": job.frameRange.map { [$0.lowerBound, $0.upperBound] } ?? NSNull(),
            "attempts": attempts.map { attempt in
                [
                    "number": attempt.number, "worker": attempt.worker, "host": attempt.host,
                    "pid": attempt.pid,
                    "startedAt": iso(attempt.startedAt), "endedAt": iso(attempt.endedAt),
                    "outcome": attempt.outcome?.rawValue ?? NSNull(), "error": attempt.error ?? NSNull(),
                ] as [String: Any]
            },
        ]
    }

    static func details(_ job: QueuedJob, attempts: [AttemptRecord], batchSize: Int, remaining: Double?)
        -> [String]
    {
        var lines: [String] = []
        lines.append(
            "job \(job.id): \(job.state.rawValue)"
                + (job.cancelRequested && !job.state.isTerminal ? " (cancel requested)" : ""))
        lines.append("  file:      \(job.jobFile)")
        lines.append("  output:    \(job.output)")
        if job.isSoundtrack {
            lines.append(
                "  piece:     the soundtrack of job \(job.parentID ?? 0), encoded while its segments render")
        } else if let parent = job.parentID, let index = job.segmentIndex, let frames = job.frameRange {
            lines.append(
                "  segment:   \(index + 1) of \(job.segmentCount) of job \(parent), frames \(frames.lowerBound)"
                    + "..<\(frames.upperBound)")
        } else if job.isAssembly {
            lines.append("  segments:  \(job.segmentCount) (the job's own row assembles them)")
        }
        lines.append(
            "  progress:  \(String(format: "%.1f", job.progress * 100))%"
                + (shownStage(job).map { " (\($0))" } ?? "")
                + (remaining.map { ", about \(ProgressReporter.clock($0)) left" } ?? ""))
        lines.append("  attempts:  \(job.attempt) of \(job.maxAttempts)")
        if let batch = job.batchID, batch != job.id || batchSize > 1 {
            lines.append("  batch:     \(batch) (\(batchSize) jobs queued together)")
        }
        lines.append("  run at:    \(iso(job.runAt))")
        if !job.variables.isEmpty {
            lines.append(
                "  variables: "
                    + job.variables.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " "))
        }
        if let error = job.lastError { lines.append("  error:     \(error)") }
        for attempt in attempts {
            lines.append(
                "  attempt \(attempt.number): \(attempt.outcome?.rawValue ?? "running") on \(attempt.worker)"
                    + (attempt.error.map { ": \($0)" } ?? ""))
        }
        return lines
    }
}
