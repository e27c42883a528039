import Foundation
import KilnExport
import KilnModel
import KilnQueue
import KilnWorker

#if canImport(Glibc)
    import Glibc
#endif

/// `--queue sqlite:PATH` / `$KILN_QUEUE`, else the XDG state path.
enum QueueLocation {
    static func databasePath(_ args: Arguments, command: String) throws -> String {
        let written = args.values["--queue"] ?? ProcessInfo.processInfo.environment["KILN_QUEUE"]
        guard let written, !written.isEmpty else { return StoreLocation.defaultDatabasePath() }
        if isPostgres(written) { return written }
        let path = written.hasPrefix("sqlite:") ? String(written.dropFirst("sqlite:".count)) : written
        guard !path.isEmpty else {
            throw UsageError(message: "--queue sqlite: needs a path", command: command)
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
func limitSettings(_ args: Arguments, command: String) throws -> ResourceLimits {
    var overrides = try KilnConfiguration.load(explicit: args.values["--config"]).limitOverrides
    do {
        for setting in args.repeated["--limit"] ?? [] {
            let (name, value) = try ResourceLimits.parseOverride(setting)
            overrides[name] = value
        }
        return try ResourceLimits(overrides: overrides)
    } catch {
        throw UsageError(message: "--limit: \(error)", command: command)
    }
}

/// Variables from `--set name=value` (repeatable).
func variableSettings(_ args: Arguments, command: String) throws -> [String: String] {
    var variables: [String: String] = [:]
    for setting in args.repeated["--set"] ?? [] {
        guard let eq = setting.firstIndex(of: "="), eq != setting.startIndex else {
            throw UsageError(message: "--set expects name=value, got '\(setting)'", command: command)
        }
        variables[String(setting[..<eq])] = String(setting[setting.index(after: eq)...])
    }
    return variables
}

func printJSON(_ object: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
    print(String(decoding: data, as: UTF8.self))
}

enum EnqueueCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(
            raw, command: "enqueue",
            valued: ([
                "--priority", "--at", "--set", "--limit", "--batch", "--idempotency-key", "--queue",
                "--max-attempts",
                "--segments", "--segment-seconds",
            ] as Set<String>).union(PathOptions.queueFlags),
            boolean: ["--json"])
        if args.flags.contains("--help") {
            print(Help.enqueue)
            return ExitCode.ok
        }
        guard !args.positionals.isEmpty else {
            throw UsageError(message: "enqueue needs at least one job file", command: "enqueue")
        }
        var options = JobSubmission.Options()
        options.variables = try variableSettings(args, command: "enqueue")
        options.limits = try limitSettings(args, command: "enqueue")
        options.batchFile = args.values["--batch"]
        options.priority = try args.int("--priority", command: "enqueue", range: -1000...1000) ?? 0
        options.maxAttempts = try args.int("--max-attempts", command: "enqueue", range: 1...100) ?? 5
        options.idempotencyKey = args.values["--idempotency-key"]
        options.segments = try RenderCommand.segmentRequest(args, command: "enqueue")
        let now = Date().timeIntervalSince1970
        if let at = args.values["--at"] {
            guard let time = DurationText.time(at, now: now) else {
                throw UsageError(
                    message:
                        "--at expects 2026-12-01T09:30:00Z, '2026-12-01 09:30' (local) or +10m, got '\(at)'",
                    command: "enqueue")
            }
            options.runAt = time
        }
        let path = try QueueLocation.databasePath(args, command: "enqueue")
        options.roots = try PathOptions.queueRoots(args, command: "enqueue", queueLocation: path)
        let requests: [EnqueueRequest]
        do {
            requests = try JobSubmission.requests(jobFiles: args.positionals, options: options, now: now)
        } catch {
            for message in error.messages { Output.stderr("kiln: error: \(message)") }
            Output.stderr("kiln: nothing was enqueued")
            return error.exitCode
        }
        let ids = try QueueLocation.open(path).enqueue(requests)
        if args.flags.contains("--json") {
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

enum WorkerCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(
            raw, command: "worker",
            valued: ([
                "--concurrency", "--queue", "--threads", "--name", "--grace", "--frame-hashes",
                "--stall-seconds", "--limit",
            ] as Set<String>).union(PathOptions.queueFlags),
            boolean: ["--drain", "--once"])
        if args.flags.contains("--help") {
            print(Help.worker)
            return ExitCode.ok
        }
        guard args.positionals.isEmpty else {
            throw UsageError(message: "worker takes no job files (it runs what is queued)", command: "worker")
        }
        var options = QueueWorker.Options()
        options.concurrency = try args.int("--concurrency", command: "worker", range: 1...64) ?? 1
        options.threadsPerJob = try args.int("--threads", command: "worker", range: 1...256)
        options.mode =
            args.flags.contains("--once") ? .once : args.flags.contains("--drain") ? .drain : .forever
        options.name = args.values["--name"]
        options.frameHashes = args.values["--frame-hashes"]
        options.limits = try limitSettings(args, command: "worker")
        options.policy = QueueLocation.policy
        WorkerSignals.graceSeconds = try args.double("--grace", command: "worker") ?? 30
        if let stall = try args.double("--stall-seconds", command: "worker") {
            guard stall > 0 else {
                throw UsageError(message: "--stall-seconds must be a positive number", command: "worker")
            }
            options.stallSeconds = stall
        }
        // The render processes get most of the grace period to stop on their own.
        options.stopGraceSeconds = max(1, WorkerSignals.graceSeconds * 0.8)
        let path = try QueueLocation.databasePath(args, command: "worker")
        options.roots = try PathOptions.queueRoots(args, command: "worker", queueLocation: path)
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

enum StatusCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: "status", valued: ["--queue", "--state"], boolean: ["--json"])
        if args.flags.contains("--help") {
            print(Help.status)
            return ExitCode.ok
        }
        let store = try QueueLocation.open(try QueueLocation.databasePath(args, command: "status"))
        if let idText = args.positionals.first {
            guard args.positionals.count == 1, let id = Int64(idText) else {
                throw UsageError(message: "status takes at most one job id", command: "status")
            }
            guard let job = try store.job(id: id) else {
                Output.error("no job \(id) in the queue")
                return ExitCode.noInput
            }
            let attempts = try store.attempts(jobID: id)
            if args.flags.contains("--json") {
                try printJSON(describe(job, attempts: attempts))
            } else {
                printDetails(job, attempts: attempts)
            }
            return ExitCode.ok
        }
        var states: [JobState]?
        if let filter = args.values["--state"] {
            states = try filter.split(separator: ",").map { name in
                guard let state = JobState(rawValue: String(name)) else {
                    throw UsageError(
                        message:
                            "--state expects \(JobState.allCases.map(\.rawValue).joined(separator: ", "))",
                        command: "status")
                }
                return state
            }
        }
        let jobs = try store.jobs(states: states)
        if args.flags.contains("--json") {
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

enum LogsCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: "logs", valued: ["--queue"])
        if args.flags.contains("--help") {
            Output.line(Help.logs)
            return ExitCode.ok
        }
        guard args.positionals.count == 1, let id = Int64(args.positionals[0]) else {
            throw UsageError(message: "logs takes one job id", command: "logs")
        }
        let store = try QueueLocation.open(try QueueLocation.databasePath(args, command: "logs"))
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

/// `kiln cancel ID` and `kiln retry ID`.
enum JobActionCommand {
    static func run(_ action: String, _ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: action, valued: ["--queue"])
        if args.flags.contains("--help") {
            print(action == "cancel" ? Help.cancel : Help.retry)
            return ExitCode.ok
        }
        guard args.positionals.count == 1, let id = Int64(args.positionals[0]) else {
            throw UsageError(message: "\(action) takes one job id", command: action)
        }
        let store = try QueueLocation.open(try QueueLocation.databasePath(args, command: action))
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

enum PruneCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: "prune", valued: ["--queue", "--older-than"])
        if args.flags.contains("--help") {
            print(Help.prune)
            return ExitCode.ok
        }
        guard let text = args.values["--older-than"], let age = DurationText.seconds(text) else {
            throw UsageError(
                message: "prune needs --older-than DURATION (e.g. 7d, 12h, 30m)", command: "prune")
        }
        let store = try QueueLocation.open(try QueueLocation.databasePath(args, command: "prune"))
        let removed = try store.prune(endedBefore: Date().timeIntervalSince1970 - age)
        Output.stderr("kiln: removed \(removed) ended job(s)")
        return ExitCode.ok
    }
}

/// `kiln run JOB`: enqueue into the embedded queue and drain it in this process.
enum RunCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(
            raw, command: "run",
            valued: (["--queue", "--set", "--threads"] as Set<String>).union(PathOptions.queueFlags))
        if args.flags.contains("--help") {
            print(Help.run)
            return ExitCode.ok
        }
        guard args.positionals.count == 1 else {
            throw UsageError(message: "run takes exactly one job file", command: "run")
        }
        var submission = JobSubmission.Options()
        submission.variables = try variableSettings(args, command: "run")
        let path = try QueueLocation.databasePath(args, command: "run")
        submission.roots = try PathOptions.queueRoots(args, command: "run", queueLocation: path)
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
        options.threadsPerJob = try args.int("--threads", command: "run", range: 1...256)
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
