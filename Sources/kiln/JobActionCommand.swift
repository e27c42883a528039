import Foundation
import KilnCommandLine
import KilnQueue

/// What `kiln cancel` and `kiln retry` share: one job, a list of ids, or a selection of jobs
/// (`--all`, `--state`, `--batch`).
enum JobActionCommand {
    enum Action: String {
        case cancel, retry

        /// The states a selection picks from when `--state` does not narrow it: those the action
        /// changes. Retry leaves completed jobs alone unless `--state completed` asks for them.
        var selectableStates: [JobState] {
            switch self {
            case .cancel: [.scheduled, .available, .retryable, .running]
            case .retry: [.retryable, .discarded, .cancelled]
            }
        }

        /// Every state the action can change.
        var applicableStates: [JobState] {
            switch self {
            case .cancel: selectableStates
            case .retry: selectableStates + [.completed]
            }
        }

        var pastTense: String { self == .cancel ? "cancelled" : "retried" }
    }

    static let all = OptionSpec.flag(
        "--all", help: "every job the command applies to (with --state or --batch: every one of those)")
    static let batch = OptionSpec(
        "--batch", kind: .int(0...Int.max), placeholder: "N",
        help: "the jobs queued together with job N (one `kiln enqueue`, or one schedule fire)")
    static let json = OptionSpec.flag("--json", help: "print [{id, state, changed}] for every job acted on")
    static let ids = PositionalSpec(
        "ID", kind: PositionalSpec.jobID.kind, count: .zeroOrMore,
        help: "job ids from `kiln enqueue` or `kiln status`")

    static func state(for action: Action) -> OptionSpec {
        OptionSpec(
            "--state", kind: .string, placeholder: "S[,S…]",
            help: "only jobs in these states (of "
                + action.applicableStates.map(\.rawValue).joined(separator: ", ")
                + "; default: " + action.selectableStates.map(\.rawValue).joined(separator: ", ") + ")")
    }

    static func options(for action: Action) -> [OptionSpec] {
        [all, state(for: action), batch, json, .queue]
    }

    static func run(_ action: Action, _ args: ParsedArguments) throws -> Int32 {
        let stateFilter = args.string(state(for: action))
        let batchID = args.int(batch).map(Int64.init)
        let selects = args.flag(all) || stateFilter != nil || batchID != nil
        let ids = try args.positionals.map { text in
            guard let id = Int64(text) else { throw args.usageError("\(action) takes job ids") }
            return id
        }
        if selects && !ids.isEmpty {
            throw args.usageError("give job ids or --all/--state/--batch, not both")
        }
        if !selects && ids.isEmpty {
            throw args.usageError("\(action) needs job ids, or --all, --state S or --batch N")
        }
        let store = try QueueLocation.open(try QueueLocation.databasePath(args))
        if ids.count == 1 && !args.flag(json) { return try single(action, ids[0], store: store) }
        var targets: [QueuedJob] = []
        var exitCode = ExitCode.ok
        if selects {
            let states = try parseStates(stateFilter, for: action, args) ?? action.selectableStates
            let candidates =
                try batchID.map { try store.jobs(inBatch: $0) }
                ?? store.jobs(states: states).filter { !$0.isSegment }
            if let batchID, candidates.isEmpty {
                Output.error("no batch with job \(batchID) in the queue")
                return ExitCode.noInput
            }
            targets = candidates.filter { states.contains($0.state) }
        } else {
            for id in ids {
                if let job = try store.job(id: id) {
                    targets.append(job)
                } else {
                    Output.error("no job \(id) in the queue")
                    exitCode = ExitCode.noInput
                }
            }
        }
        var results: [(id: Int64, state: String, changed: Bool)] = []
        var stopping = 0
        for job in targets {
            let changed = action == .cancel ? try store.cancel(id: job.id) : try store.retry(id: job.id)
            let now = try store.job(id: job.id)
            results.append((job.id, now?.state.rawValue ?? "gone", changed))
            if changed && now?.state == .running { stopping += 1 }
            if !changed && !selects {
                Output.error("job \(job.id) is \(now?.state.rawValue ?? "gone"); nothing to \(action)")
                if exitCode == ExitCode.ok { exitCode = ExitCode.dataError }
            }
        }
        if args.flag(json) {
            try printJSON(
                results.map { ["id": $0.id, "state": $0.state, "changed": $0.changed] as [String: Any] })
        }
        let changed = results.filter(\.changed).map(\.id)
        if changed.isEmpty {
            if selects { Output.stderr("kiln: no jobs to \(action)" + describe(stateFilter, batchID)) }
        } else {
            Output.stderr(
                "kiln: \(action.pastTense) \(changed.count) job\(changed.count == 1 ? "" : "s") ("
                    + changed.map(String.init).joined(separator: ", ") + ")"
                    + (stopping > 0 ? "; \(stopping) running will stop within a second" : ""))
        }
        return exitCode
    }

    /// One job by id: its errors are the exit status (66 unknown, 65 nothing to do).
    static func single(_ action: Action, _ id: Int64, store: any JobStore) throws -> Int32 {
        guard let job = try store.job(id: id) else {
            Output.error("no job \(id) in the queue")
            return ExitCode.noInput
        }
        let changed = action == .cancel ? try store.cancel(id: id) : try store.retry(id: id)
        guard changed else {
            Output.error("job \(id) is \(job.state.rawValue); nothing to \(action)")
            return ExitCode.dataError
        }
        let now = try store.job(id: id)
        Output.stderr(
            "kiln: job \(id) "
                + (now?.state == .running
                    ? "will stop within a second" : "is \(now?.state.rawValue ?? "gone")"))
        return ExitCode.ok
    }

    static func parseStates(_ filter: String?, for action: Action, _ args: ParsedArguments) throws
        -> [JobState]?
    {
        try filter.map { try StateFilter.parse($0, allowed: action.applicableStates, args) }
    }

    static func describe(_ states: String?, _ batch: Int64?) -> String {
        (states.map { " in state \($0)" } ?? "") + (batch.map { " in batch \($0)" } ?? "")
    }
}
