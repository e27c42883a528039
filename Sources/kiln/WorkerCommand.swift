import Foundation
import KilnCommandLine
import KilnWorker

#if canImport(Glibc)
    import Glibc
#endif

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
    static let onDone = OptionSpec(
        "--on-done", kind: .string, placeholder: "CMD",
        help:
            "run CMD (with /bin/sh) for each job that ends while this worker runs: the job as JSON on stdin, "
            + "KILN_JOB_ID, _STATE, _NAME, _FILE, _OUTPUT, _ERROR and _BATCH in its environment "
            + "(default: the config file's onDone)")
    static let onDoneURL = OptionSpec(
        "--on-done-url", kind: .string, placeholder: "URL",
        help: "POST each ended job as JSON to URL, a local address: http://127.0.0.1:PORT/PATH, "
            + "http://localhost… or http://[::1]… (default: the config file's onDoneURL)")
    static let spec = CommandSpec(
        "worker", summary: "run queued jobs",
        description: """
            Runs queued exports, each attempt in a render process of its own: a job that crashes
            or hangs its render is charged alone, never the jobs beside it. Each job is claimed with a
            lease (60 s, renewed every 15 s; KILN_QUEUE_LEASE_SECONDS shortens both), rendered to a
            temp file beside its output and renamed into place before the job is marked completed;
            while it runs, its progress is stored about once a second and a cancel is seen within a
            second. Failures retry with backoff (15 s doubling, up to an hour); invalid jobs and
            missing files are discarded at once. SIGINT/SIGTERM hands running jobs back to the queue
            and exits (a second signal exits at once; after --grace seconds the worker exits anyway).
            """,
        options: [
            concurrency, drain, once, .jobThreads, name, grace, stallSeconds, frameHashes, onDone, onDoneURL,
            .limit,
        ]
            + OptionSpec.queueRoots,
        notes: """
            A job that reads outside the asset roots or writes outside the output roots is discarded
            before any work, with the reason in `kiln status ID`.

            Completion hooks: each job that ends (completed, discarded, or cancelled, by whoever)
            while a worker with --on-done or --on-done-url runs is announced once, by one such
            worker, within about 5 s; jobs that ended before it started are not. A hook has 30 s;
            its failure is logged and never changes the job. Values in KILN_JOB_* come from jobs:
            quote them ("$KILN_JOB_OUTPUT"). Hooks are the worker's, never a job's.
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
        let configuration = try KilnConfiguration.load(explicit: args.string(.config))
        // An empty --on-done '' turns off the configuration's command.
        if let command = args.string(onDone) {
            options.completionHook.command = command.isEmpty ? nil : command
        } else {
            options.completionHook.command = configuration.onDone
        }
        if let text = args.string(onDoneURL) {
            do {
                options.completionHook.url = try LoopbackURL(text)
            } catch {
                throw args.usageError("--on-done-url: \(error)")
            }
        } else {
            options.completionHook.url = configuration.onDoneURL
        }
        return runWorker(path: path, options: options)
    }

    /// `log` gets each of the worker's lines (`kiln run` prints them above its bar).
    static func runWorker(
        path: String, options: QueueWorker.Options,
        log: @escaping @Sendable (String) -> Void = { Output.stderr($0) }
    ) -> Int32 {
        WorkerSignals.install()
        let worker = QueueWorker(
            options: options, stop: interruption, log: { log("kiln worker: \($0)") },
            openStore: { try QueueLocation.open(path) })
        do {
            let summary = try worker.run()
            log(
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
