import Foundation
import KilnCommandLine
import KilnExport
import KilnModel
import KilnQueue
import KilnWorker

#if canImport(Glibc)
    import Glibc
#endif

/// `--queue sqlite:PATH` / `$KILN_QUEUE`, else the XDG state path.
enum QueueLocation {
    static func databasePath(_ args: ParsedArguments) throws -> String {
        let given = args.declares(.queue) ? args.string(.queue) : nil
        let written = given ?? ProcessInfo.processInfo.environment["KILN_QUEUE"]
        guard let written, !written.isEmpty else { return StoreLocation.defaultDatabasePath() }
        if isPostgres(written) { return written }
        let path = written.hasPrefix("sqlite:") ? String(written.dropFirst("sqlite:".count)) : written
        guard !path.isEmpty else {
            throw args.usageError("--queue sqlite: needs a path")
        }
        return path
    }

    static func isPostgres(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// Lease and heartbeat lengths: the design's 60 s / 15 s, shortened by
    /// `KILN_QUEUE_LEASE_SECONDS` for tests and fast failover.
    static var policy: RetryPolicy {
        var policy = RetryPolicy()
        if let text = ProcessInfo.processInfo.environment["KILN_QUEUE_LEASE_SECONDS"],
            let lease = Double(text),
            lease >= 1
        {
            policy.leaseSeconds = lease
            policy.heartbeatSeconds = lease / 4
        }
        return policy
    }

    /// A SQLite file path or a `postgres://` URL (its password is never printed).
    static func open(_ location: String) throws -> QueueStore {
        isPostgres(location)
            ? try QueueStore(postgresURL: location, policy: policy)
            : try QueueStore(path: location, policy: policy)
    }
}

/// The limits: the defaults, then the configuration file's `"limits"`, then every
/// `--limit name=value` (repeatable).
func limitSettings(_ args: ParsedArguments) throws -> ResourceLimits {
    let configuration = args.declares(.config) ? args.string(.config) : nil
    var overrides = try KilnConfiguration.load(explicit: configuration).limitOverrides
    do {
        for setting in args.strings(.limit) {
            let (name, value) = try ResourceLimits.parseOverride(setting)
            overrides[name] = value
        }
        return try ResourceLimits(overrides: overrides)
    } catch {
        throw args.usageError("--limit: \(error)")
    }
}

/// Variables from `--set name=value` (repeatable).
func variableSettings(_ args: ParsedArguments) throws -> [String: String] {
    var variables: [String: String] = [:]
    for setting in args.strings(.set) {
        guard let eq = setting.firstIndex(of: "="), eq != setting.startIndex else {
            throw args.usageError("--set expects name=value, got '\(setting)'")
        }
        variables[String(setting[..<eq])] = String(setting[setting.index(after: eq)...])
    }
    return variables
}

func printJSON(_ object: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
    print(String(decoding: data, as: UTF8.self))
}

enum EnqueueCommand: KilnSubcommand {
    static let at = OptionSpec(
        "--at", kind: .string, placeholder: "TIME",
        help: "not before TIME: 2026-12-01T09:30:00Z, '2026-12-01 09:30' (local) or +10m")
    static let batch = OptionSpec(
        "--batch", kind: .path, placeholder: "FILE",
        help: ".csv with a header of variable names, or .jsonl with one object per line: one job per row, "
            + "the row's values over --set")
    static let idempotencyKey = OptionSpec(
        "--idempotency-key", kind: .string, placeholder: "K",
        help: "a second enqueue with the same key returns the first job's id")
    static let maxAttempts = OptionSpec(
        "--max-attempts", kind: .int(1...100), default: .int(5),
        help: "attempts before a failing job is discarded")
    static let json = OptionSpec.flag("--json", help: "print {id, job, output, segments} per job as JSON")
    static let spec = CommandSpec(
        "enqueue", summary: "validate and queue export jobs (all or none)",
        description: """
            Validates every job (and every batch row) exactly as `kiln render` would, then queues one
            export per job and row. If anything is invalid, nothing is queued (exit 65, or 66 for a
            missing file). Prints the new job ids, one per line (or JSON with --json).

            A job of 60 s or more (or any job with --segments / --segment-seconds) is split into
            segment tasks that any worker may render at the same time; the job itself is joined from
            them (stream copy, audio encoded once) when all are done. See docs/scale-out.md.
            """,
        options: [
            .priority, at, .set, batch, idempotencyKey, maxAttempts, json, .segments, .segmentSeconds, .limit,
        ]
            + OptionSpec.queueRoots,
        positionals: [.jobs])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        var options = JobSubmission.Options()
        options.variables = try variableSettings(args)
        options.limits = try limitSettings(args)
        options.batchFile = args.string(batch)
        options.priority = args.int(.priority) ?? 0
        options.maxAttempts = args.int(maxAttempts) ?? 5
        options.idempotencyKey = args.string(idempotencyKey)
        options.segments = try RenderCommand.segmentRequest(args)
        let now = Date().timeIntervalSince1970
        if let at = args.string(Self.at) {
            guard let time = DurationText.time(at, now: now) else {
                throw args.usageError(
                    "--at expects 2026-12-01T09:30:00Z, '2026-12-01 09:30' (local) or +10m, got '\(at)'")
            }
            options.runAt = time
        }
        let path = try QueueLocation.databasePath(args)
        options.roots = try PathOptions.queueRoots(args, queueLocation: path)
        let requests: [EnqueueRequest]
        do {
            requests = try JobSubmission.requests(jobFiles: args.positionals, options: options, now: now)
        } catch {
            for message in error.messages { Output.stderr("kiln: error: \(message)") }
            Output.stderr("kiln: nothing was enqueued")
            return error.exitCode
        }
        let ids = try QueueLocation.open(path).enqueue(requests)
        if args.flag(json) {
            try printJSON(
                zip(ids, requests).map {
                    ["id": $0, "job": $1.jobFile, "output": $1.output, "segments": max(1, $1.segments.count)]
                })
        } else {
            for id in ids { print(id) }
        }
        return ExitCode.ok
    }
}

/// Signals for a worker: the first SIGINT/SIGTERM stops claiming and hands running jobs back; a
/// second exits at once; and if the jobs have not stopped within the grace period, the process
/// exits anyway (their leases then expire and the jobs are reclaimed).
enum WorkerSignals {
    nonisolated(unsafe) static var graceSeconds: Double = 30

    static func install() {
        installInterruptHandlers()
        let watchdog = Thread {
            while interruption.cancelledBySignal == nil { Thread.sleep(forTimeInterval: 0.1) }
            let signal = interruption.cancelledBySignal ?? SIGTERM
            Thread.sleep(forTimeInterval: graceSeconds)
            Output.stderr("kiln: worker did not stop within \(Int(graceSeconds)) s; exiting")
            _exit(128 + signal)
        }
        watchdog.name = "kiln-grace"
        watchdog.start()
    }
}

enum WorkerCommand: KilnSubcommand {
    static let concurrency = OptionSpec(
        "--concurrency", kind: .int(1...64), default: .int(1),
        help: "jobs at once, each on its own share of the cores")
    static let drain = OptionSpec.flag(
        "--drain", help: "exit when no job is due and no dead worker's job is left to reclaim")
    static let once = OptionSpec.flag("--once", help: "run one job (if one is due) and exit")
    static let name = OptionSpec(
        "--name", kind: .string, placeholder: "NAME", help: "this worker's name in attempts and logs")
    static let grace = OptionSpec(
        "--grace", kind: .double(minimum: 0), placeholder: "SECONDS", default: .double(30),
        help: "after SIGINT/SIGTERM, exit anyway after this long")
    static let stallSeconds = OptionSpec(
        "--stall-seconds", kind: .double(minimum: 0),
        help: "kill an attempt that reports no progress for S s (default 600) and charge it as stalled")
    static let frameHashes = OptionSpec(
        "--frame-hashes", kind: .path, placeholder: "FILE",
        help: "append \"FRAME DIGEST\" for every frame rendered to FILE (as kiln render)")
    static let spec = CommandSpec(
        "worker", summary: "run queued jobs",
        description: """
            Runs queued exports, each attempt in a render process of its own: a job that crashes
            or hangs its render is charged alone, never the jobs beside it. Each job is claimed with a
            lease (60 s, renewed every 15 s with its progress; KILN_QUEUE_LEASE_SECONDS shortens both),
            rendered to a temp file beside its output and renamed into place before the job is marked
            completed. Failures retry with backoff (15 s doubling, up to an hour); invalid jobs and
            missing files are discarded at once. SIGINT/SIGTERM hands running jobs back to the queue and
            exits (a second signal exits at once; after --grace seconds the worker exits anyway).
            """,
        options: [concurrency, drain, once, .jobThreads, name, grace, stallSeconds, frameHashes, .limit]
            + OptionSpec.queueRoots,
        notes: """
            A job that reads outside the asset roots or writes outside the output roots is discarded
            before any work, with the reason in `kiln status ID`.
            """)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        var options = QueueWorker.Options()
        options.concurrency = args.int(concurrency) ?? 1
        options.threadsPerJob = args.int(.jobThreads)
        options.mode = args.flag(once) ? .once : args.flag(drain) ? .drain : .forever
        options.name = args.string(name)
        options.frameHashes = args.string(frameHashes)
        options.limits = try limitSettings(args)
        options.policy = QueueLocation.policy
        WorkerSignals.graceSeconds = args.double(grace) ?? 30
        if let stall = args.double(stallSeconds) {
            guard stall > 0 else {
                throw args.usageError("--stall-seconds must be a positive number")
            }
            options.stallSeconds = stall
        }
        // The render processes get most of the grace period to stop on their own.
        options.stopGraceSeconds = max(1, WorkerSignals.graceSeconds * 0.8)
        let path = try QueueLocation.databasePath(args)
        options.roots = try PathOptions.queueRoots(args, queueLocation: path)
        return runWorker(path: path, options: options)
    }

    static func runWorker(path: String, options: QueueWorker.Options) -> Int32 {
        WorkerSignals.install()
        let worker = QueueWorker(
            options: options, stop: interruption, log: { Output.stderr("kiln worker: \($0)") },
            openStore: { try QueueLocation.open(path) })
        do {
            let summary = try worker.run()
            Output.stderr(
                "kiln worker: \(summary.completed) completed, \(summary.failed) failed (will retry), "
                    + "\(summary.discarded) discarded, \(summary.cancelled) cancelled, \(summary.released) returned"
            )
            if let signal = interruption.cancelledBySignal { return 128 + signal }
            return ExitCode.ok
        } catch {
            Output.error("\(error)")
            return ExitCode.unavailable
        }
    }
}

enum StatusCommand: KilnSubcommand {
    static let json = OptionSpec.flag("--json", help: "print the same as JSON (an array, or one object)")
    static let state = OptionSpec(
        "--state", kind: .string, placeholder: "S[,S…]",
        help: "only jobs in these states: " + JobState.allCases.map(\.rawValue).joined(separator: ", "))
    static let spec = CommandSpec(
        "status", summary: "jobs with state, progress, attempts, output and errors",
        description: """
            Lists queued jobs (id, state, progress, attempts, output), or one job in detail with its
            attempts and last error.
            """,
        options: [json, state, .queue],
        positionals: [
            PositionalSpec("ID", kind: PositionalSpec.jobID.kind, count: .optional, help: "one job in detail")
        ])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let store = try QueueLocation.open(try QueueLocation.databasePath(args))
        if let idText = args.positionals.first {
            guard let id = Int64(idText) else { throw args.usageError("status takes at most one job id") }
            guard let job = try store.job(id: id) else {
                Output.error("no job \(id) in the queue")
                return ExitCode.noInput
            }
            let attempts = try store.attempts(jobID: id)
            if args.flag(json) {
                try printJSON(describe(job, attempts: attempts))
            } else {
                printDetails(job, attempts: attempts)
            }
            return ExitCode.ok
        }
        var states: [JobState]?
        if let filter = args.string(state) {
            states = try filter.split(separator: ",").map { name in
                guard let state = JobState(rawValue: String(name)) else {
                    throw args.usageError(
                        "--state expects \(JobState.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return state
            }
        }
        let jobs = try store.jobs(states: states)
        if args.flag(json) {
            try printJSON(try jobs.map { describe($0, attempts: try store.attempts(jobID: $0.id)) })
            return ExitCode.ok
        }
        Output.line(
            pad("ID", 6) + pad("STATE", 11) + pad("PROGRESS", 10) + pad("ATTEMPTS", 10) + pad("JOB", 18)
                + "OUTPUT")
        for job in jobs {
            Output.line(
                pad("\(job.id)", 6) + pad(displayState(job), 11)
                    + pad(String(format: "%.0f%%", job.progress * 100), 10)
                    + pad("\(job.attempt)/\(job.maxAttempts)", 10) + pad(displayName(job), 18) + job.output)
        }
        return ExitCode.ok
    }

    /// A split job's own row is `scheduled` in the store while it waits for its segments.
    static func displayState(_ job: QueuedJob) -> String {
        job.isAssembly && job.state == .scheduled && job.progress < 1 ? "waiting" : job.state.rawValue
    }

    static func displayName(_ job: QueuedJob) -> String {
        guard let parent = job.parentID, let index = job.segmentIndex else { return job.name }
        return job.isSoundtrack
            ? "  \(parent) soundtrack" : "  \(parent) seg \(index + 1)/\(job.segmentCount)"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// A time for JSON: ISO 8601, or null.
    static func iso(_ seconds: Double?) -> Any {
        seconds.map(QueueStore.iso) ?? NSNull()
    }

    static func describe(_ job: QueuedJob, attempts: [AttemptRecord]) -> [String: Any] {
        [
            "id": job.id, "state": job.state.rawValue, "name": job.name, "job": job.jobFile,
            "output": job.output,
            "progress": (job.progress * 1000).rounded() / 10, "stage": job.stage ?? NSNull(),
            "attempt": job.attempt, "maxAttempts": job.maxAttempts, "priority": job.priority,
            "runAt": iso(job.runAt), "createdAt": iso(job.createdAt), "finishedAt": iso(job.finishedAt),
            "cancelRequested": job.cancelRequested, "variables": job.variables,
            "error": job.lastError ?? NSNull(), "idempotencyKey": job.idempotencyKey ?? NSNull(),
            "scheduleID": job.scheduleID ?? NSNull(), "fireTime": iso(job.fireTime),
            "parentID": job.parentID ?? NSNull(), "segmentIndex": job.segmentIndex ?? NSNull(),
            "segmentCount": job.segmentCount,
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

    static func printDetails(_ job: QueuedJob, attempts: [AttemptRecord]) {
        Output.line(
            "job \(job.id): \(job.state.rawValue)" + (job.cancelRequested ? " (cancel requested)" : ""))
        Output.line("  file:      \(job.jobFile)")
        Output.line("  output:    \(job.output)")
        if job.isSoundtrack {
            Output.line(
                "  piece:     the soundtrack of job \(job.parentID ?? 0), encoded while its segments render")
        } else if let parent = job.parentID, let index = job.segmentIndex, let frames = job.frameRange {
            Output.line(
                "  segment:   \(index + 1) of \(job.segmentCount) of job \(parent), frames \(frames.lowerBound)"
                    + "..<\(frames.upperBound)")
        } else if job.isAssembly {
            Output.line("  segments:  \(job.segmentCount) (the job's own row assembles them)")
        }
        Output.line(
            "  progress:  \(String(format: "%.1f", job.progress * 100))%"
                + (job.stage.map { " (\($0))" } ?? ""))
        Output.line("  attempts:  \(job.attempt) of \(job.maxAttempts)")
        Output.line("  run at:    \(iso(job.runAt))")
        if !job.variables.isEmpty {
            Output.line(
                "  variables: "
                    + job.variables.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " "))
        }
        if let error = job.lastError { Output.line("  error:     \(error)") }
        for attempt in attempts {
            Output.line(
                "  attempt \(attempt.number): \(attempt.outcome?.rawValue ?? "running") on \(attempt.worker)"
                    + (attempt.error.map { ": \($0)" } ?? ""))
        }
    }
}

enum LogsCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "logs", summary: "what happened to a job, attempt by attempt",
        description: """
            Prints what happened to a job: enqueued, each attempt's claim and its end (completed,
            failed with the error, crashed, returned), cancel and retry requests.
            """,
        options: [.queue], positionals: [.jobID])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let id = try jobID(args)
        let store = try QueueLocation.open(try QueueLocation.databasePath(args))
        guard try store.job(id: id) != nil else {
            Output.error("no job \(id) in the queue")
            return ExitCode.noInput
        }
        for event in try store.events(jobID: id) {
            Output.line("\(StatusCommand.iso(event.at))  \(event.message)")
        }
        return ExitCode.ok
    }
}

/// `kiln cancel ID`.
enum CancelCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "cancel", summary: "stop a job",
        description: """
            Cancels a waiting job at once; a running job's worker stops at its next heartbeat and
            removes its temp file. Exit 65 if the job has already ended.
            """,
        options: [.queue], positionals: [.jobID])

    static func run(_ args: ParsedArguments) throws -> Int32 { try JobActionCommand.run("cancel", args) }
}

/// `kiln retry ID`.
enum RetryCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "retry", summary: "queue an ended job again",
        description: "Queues an ended (or retryable) job again now, with a fresh set of attempts.",
        options: [.queue], positionals: [.jobID])

    static func run(_ args: ParsedArguments) throws -> Int32 { try JobActionCommand.run("retry", args) }
}

/// The job id argument of `logs`, `cancel` and `retry`.
func jobID(_ args: ParsedArguments) throws -> Int64 {
    guard let text = args.positionals.first, let id = Int64(text) else {
        throw args.usageError("\(args.command) takes one job id")
    }
    return id
}

/// What `kiln cancel` and `kiln retry` share.
enum JobActionCommand {
    static func run(_ action: String, _ args: ParsedArguments) throws -> Int32 {
        let id = try jobID(args)
        let store = try QueueLocation.open(try QueueLocation.databasePath(args))
        guard let job = try store.job(id: id) else {
            Output.error("no job \(id) in the queue")
            return ExitCode.noInput
        }
        let changed = action == "cancel" ? try store.cancel(id: id) : try store.retry(id: id)
        guard changed else {
            Output.error("job \(id) is \(job.state.rawValue); nothing to \(action)")
            return ExitCode.dataError
        }
        let now = try store.job(id: id)
        Output.stderr(
            "kiln: job \(id) "
                + (now?.state == .running
                    ? "will stop at its next heartbeat" : "is \(now?.state.rawValue ?? "gone")"))
        return ExitCode.ok
    }
}

enum PruneCommand: KilnSubcommand {
    static let olderThan = OptionSpec(
        "--older-than", kind: .string, placeholder: "DURATION",
        help: "required: 90 (seconds), 45s, 30m, 12h, 7d, 2w, 1h30m")
    static let spec = CommandSpec(
        "prune", summary: "delete ended jobs (--older-than DURATION)",
        description: """
            Deletes completed, discarded and cancelled jobs (and their attempts and logs) that ended
            more than DURATION ago. Output files stay.
            """,
        options: [olderThan, .queue])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        guard let text = args.string(olderThan), let age = DurationText.seconds(text) else {
            throw args.usageError("prune needs --older-than DURATION (e.g. 7d, 12h, 30m)")
        }
        let store = try QueueLocation.open(try QueueLocation.databasePath(args))
        let removed = try store.prune(endedBefore: Date().timeIntervalSince1970 - age)
        Output.stderr("kiln: removed \(removed) ended job(s)")
        return ExitCode.ok
    }
}

/// `kiln run JOB`: enqueue into the embedded queue and drain it in this process.
enum RunCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "run", summary: "enqueue and drain in one command",
        description: """
            Enqueues JOB into the embedded queue and runs the queue until nothing is due, in this
            process; prints the output path. Exit 0 when the job completed, 75 when it failed and is
            waiting to retry, 65/66 when the job is invalid. Roots as for enqueue and worker.
            """,
        options: [.set, .jobThreads] + OptionSpec.queueRoots, positionals: [.job])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        var submission = JobSubmission.Options()
        submission.variables = try variableSettings(args)
        let path = try QueueLocation.databasePath(args)
        submission.roots = try PathOptions.queueRoots(args, queueLocation: path)
        let requests: [EnqueueRequest]
        do {
            requests = try JobSubmission.requests(
                jobFiles: args.positionals, options: submission, now: Date().timeIntervalSince1970)
        } catch {
            for message in error.messages { Output.stderr("kiln: error: \(message)") }
            return error.exitCode
        }
        let store = try QueueLocation.open(path)
        guard let id = try store.enqueue(requests).first else { return ExitCode.software }
        Output.stderr("kiln: job \(id) enqueued; rendering")
        var options = QueueWorker.Options()
        options.mode = .drain
        options.threadsPerJob = args.int(.jobThreads)
        options.policy = QueueLocation.policy
        options.roots = submission.roots
        let status = WorkerCommand.runWorker(path: path, options: options)
        guard status == ExitCode.ok else { return status }
        let job = try store.job(id: id)
        switch job?.state {
        case .completed?:
            Output.line(job?.output ?? "")
            return ExitCode.ok
        case let state?:
            Output.error("job \(id) is \(state.rawValue)" + (job?.lastError.map { ": \($0)" } ?? ""))
            return state == .retryable ? ExitCode.tempFailure : ExitCode.software
        case nil:
            return ExitCode.software
        }
    }
}
