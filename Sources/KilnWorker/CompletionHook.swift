import Foundation
import KilnQueue

#if canImport(Glibc)
    import Glibc
#endif

/// What a worker does when a job ends (completed, discarded or cancelled): runs a shell command
/// (`--on-done CMD`) and/or posts the job as JSON to a local HTTP address (`--on-done-url`).
/// Both are the worker operator's, never a job's: a queued job cannot run commands on a worker.
public struct CompletionHook: Sendable, Equatable {
    /// Run by `/bin/sh -c`, with the job as JSON on stdin and in `KILN_JOB_*` variables.
    public var command: String?
    public var url: LoopbackURL?
    /// A hook still running after this long is killed (its job is not affected).
    public var timeoutSeconds = 30.0

    public init(command: String? = nil, url: LoopbackURL? = nil) {
        self.command = command
        self.url = url
    }

    public var isEmpty: Bool { command == nil && url == nil }

    /// What the hook is told: the fields `kiln status --json` has for the job's end.
    public static func payload(_ job: QueuedJob) -> [String: Any] {
        var payload: [String: Any] = [
            "event": "job.ended", "id": job.id, "state": job.state.rawValue, "name": job.name,
            "job": job.jobFile, "output": job.output, "error": job.lastError ?? NSNull(),
            "attempts": job.attempt, "batch": job.batchID ?? NSNull(), "variables": job.variables,
            "createdAt": QueueStore.iso(job.createdAt),
            "finishedAt": job.finishedAt.map(QueueStore.iso) ?? NSNull(),
            // From queueing to the end, waiting included.
            "seconds": (((job.finishedAt ?? job.createdAt) - job.createdAt) * 1000).rounded() / 1000,
        ]
        if job.state == .completed,
            let size = (try? FileManager.default.attributesOfItem(atPath: job.output))?[.size] as? NSNumber
        {
            payload["bytes"] = size.int64Value
        }
        return payload
    }

    public static func environment(_ job: QueuedJob) -> [String: String] {
        var variables = [
            "KILN_JOB_ID": "\(job.id)", "KILN_JOB_STATE": job.state.rawValue, "KILN_JOB_NAME": job.name,
            "KILN_JOB_FILE": job.jobFile, "KILN_JOB_OUTPUT": job.output,
        ]
        if let error = job.lastError { variables["KILN_JOB_ERROR"] = error }
        if let batch = job.batchID { variables["KILN_JOB_BATCH"] = "\(batch)" }
        return variables
    }

    /// Runs both parts for one ended job; what went wrong is logged, never thrown: a hook that
    /// fails does not change the job.
    public func announce(_ job: QueuedJob, log: @Sendable (String) -> Void) {
        let body =
            (try? JSONSerialization.data(
                withJSONObject: Self.payload(job), options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        if let command {
            if let problem = HookCommand(command: command, timeoutSeconds: timeoutSeconds).run(
                stdin: body + Data("\n".utf8), environment: Self.environment(job))
            {
                log("job \(job.id): on-done command \(problem)")
            }
        }
        if let url {
            if let problem = url.post(body, timeoutSeconds: min(timeoutSeconds, 10)) {
                log("job \(job.id): on-done post to \(url.text) \(problem)")
            }
        }
    }
}
