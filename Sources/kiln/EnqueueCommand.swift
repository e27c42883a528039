import Foundation
import KilnCommandLine
import KilnQueue
import KilnWorker

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
    static let allowOverwrite = OptionSpec.flag(
        "--allow-overwrite",
        help: "queue jobs even when two write the same output, or one writes where a queued or running job "
            + "will (the last to finish wins)")
    static let spec = CommandSpec(
        "enqueue", summary: "validate and queue export jobs (all or none)",
        description: """
            Validates every job (and every batch row) exactly as `kiln render` would, then queues one
            export per job and row. If anything is invalid, nothing is queued (exit 65, or 66 for a
            missing file). Prints the new job ids, one per line (or JSON with --json).

            A job of 60 s or more (or any job with --segments / --segment-seconds) is split into
            segment tasks that any worker may render at the same time; the job itself is joined from
            them (stream copy, audio encoded once) when all are done. See docs/scale-out.md.

            Two jobs that would write the same file (two batch rows, or a new job and one still
            queued or running) are refused (exit 73) unless --allow-overwrite is given.

            --scale, --size, --range and --duration queue drafts, as `kiln render` makes them: the
            worker renders the same picture smaller and/or part of the timeline, written beside the
            job's output as NAME.draft.EXT (a range that does not fit a job is a usage error, 64).
            """,
        options: [
            .priority, at, .set, batch, idempotencyKey, maxAttempts, json, allowOverwrite, .segments,
            .segmentSeconds, .limit,
        ]
            + OptionSpec.draftSize + OptionSpec.draftSpan + OptionSpec.queueRoots,
        positionals: [.jobs])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        var options = JobSubmission.Options()
        options.variables = try variableSettings(args)
        options.limits = try guardedLimitSettings(args)
        options.batchFile = args.string(batch)
        options.priority = args.int(.priority) ?? 0
        options.maxAttempts = args.int(maxAttempts) ?? 5
        options.idempotencyKey = args.string(idempotencyKey)
        options.segments = try RenderCommand.segmentRequest(args)
        options.draft = try draftSettings(args)
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
        let store = try QueueLocation.open(path)
        let conflicts = OutputConflicts.messages(
            for: requests, active: try store.jobs(states: JobState.allCases.filter { !$0.isTerminal }))
        if !conflicts.isEmpty {
            let allowed = args.flag(allowOverwrite)
            for message in conflicts { Output.stderr("kiln: \(allowed ? "warning" : "error"): \(message)") }
            guard allowed else {
                Output.stderr("kiln: nothing was enqueued (--allow-overwrite queues them anyway)")
                return ExitCode.cannotCreate
            }
        }
        let ids = try store.enqueue(requests)
        let batches = try Set(ids.compactMap { try store.job(id: $0)?.batchID })
        if args.flag(json) {
            try printJSON(
                try zip(ids, requests).map {
                    [
                        "id": $0, "job": $1.jobFile, "output": $1.output,
                        "segments": max(1, $1.segments.count),
                        "batch": try store.job(id: $0)?.batchID ?? NSNull(),
                    ] as [String: Any]
                })
        } else {
            for id in ids { print(id) }
        }
        if ids.count > 1, batches.count == 1, let batch = batches.first {
            Output.stderr(
                "kiln: queued \(ids.count) jobs as batch \(batch) (`kiln cancel --batch \(batch)` stops them all)"
            )
        }
        return ExitCode.ok
    }
}
