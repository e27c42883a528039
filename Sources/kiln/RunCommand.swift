import Foundation
import KilnCommandLine
import KilnQueue
import KilnWorker

/// `kiln run JOB`: enqueue into the embedded queue and drain it in this process.
enum RunCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "run", summary: "enqueue and drain in one command",
        description: """
            Enqueues JOB into the embedded queue and runs the queue until nothing is due, in this
            process; prints the output path. Exit 0 when the job completed, 75 when it failed and is
            waiting to retry, 65/66 when the job is invalid. Roots as for enqueue and worker.
            On a terminal a progress bar follows the render (--progress as for render; json ends
            with {"event": "done"} naming the output).
            """,
        options: [.set, .jobThreads, RenderCommand.progress] + OptionSpec.queueRoots, positionals: [.job])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        guard let mode = ProgressMode(args.string(RenderCommand.progress) ?? "auto") else {
            throw args.usageError("--progress expects auto, bar, json or none")
        }
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
        let reporter = ProgressReporter(mode: mode)
        let start = ProcessInfo.processInfo.systemUptime
        // Each attempt's own progress: a segmented job's pieces are tasks of their own.
        options.progress = { [reporter] jobID, fraction in
            reporter.update(
                fraction: fraction, elapsed: ProcessInfo.processInfo.systemUptime - start,
                label: jobID == id ? "job \(id)" : "job \(id), task \(jobID)")
        }
        let status = WorkerCommand.runWorker(path: path, options: options) { reporter.log($0) }
        reporter.finish()
        guard status == ExitCode.ok else { return status }
        let job = try store.job(id: id)
        switch job?.state {
        case .completed?:
            if let output = job?.output {
                let seconds = (job?.finishedAt ?? 0) - (job?.createdAt ?? 0)
                reporter.done(output: URL(fileURLWithPath: output), frames: nil, seconds: seconds)
            }
            // A program reading --progress json gets the path in the done event instead.
            if mode != .json { Output.line(job?.output ?? "") }
            return ExitCode.ok
        case let state?:
            Output.error("job \(id) is \(state.rawValue)" + (job?.lastError.map { ": \($0)" } ?? ""))
            return state == .retryable ? ExitCode.tempFailure : ExitCode.software
        case nil:
            return ExitCode.software
        }
    }
}
