import Foundation
import KilnCommandLine
import KilnQueue

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
        guard !jobs.isEmpty else {
            Output.stderr("kiln: no jobs" + (args.string(state).map { " in state \($0)" } ?? ""))
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
            "progress": (job.progress * 1000).rounded() / 10, "stage": shownStage(job) ?? NSNull(),
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
            "job \(job.id): \(job.state.rawValue)"
                + (job.cancelRequested && !job.state.isTerminal ? " (cancel requested)" : ""))
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
                + (shownStage(job).map { " (\($0))" } ?? ""))
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
