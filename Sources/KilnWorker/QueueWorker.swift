import Foundation
import KilnExport
import KilnModel
import KilnQueue
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs queued exports: `concurrency` slots, each with its own store connection, claiming due
/// jobs with a lease, rendering them through `VideoExport` (atomic output), heartbeating progress
/// from a second connection, and recording how each attempt ended (queue.md).
public final class QueueWorker: Sendable {
    public struct Options: Sendable {
        public var concurrency = 1
        public var mode = WorkerMode.forever
        /// Render threads per job; nil = all cores divided between the slots.
        public var threadsPerJob: Int?
        public var pollSeconds = 1.0
        public var policy = RetryPolicy()
        public var name: String?
        /// Appends every rendered frame's digest to this file (`FrameHashLog`).
        public var frameHashes: String?
        /// The `kiln` executable that renders each attempt in a process of its own
        /// (`kiln __render-attempt`); by default this process's own, which must then be `kiln`.
        public var renderExecutable = "/proc/self/exe"
        /// An attempt whose render process reports no progress for this long is killed and
        /// charged as stalled.
        public var stallSeconds = 600.0
        /// How long a render process told to stop (a cancel, a lost lease, a stop signal) may
        /// take before it is killed.
        public var stopGraceSeconds = 10.0
        /// The sizes each job may ask for; a job over one fails with the limit's name.
        public var limits = ResourceLimits()
        /// Where jobs may read and write; a job outside is discarded before any work.
        public var roots = JobRoots()
        /// Told each attempt's progress as its render process reports it: the job's id, 0…1
        /// (`kiln run` draws its bar from this).
        public var progress: (@Sendable (_ jobID: Int64, _ fraction: Double) -> Void)?
        /// Run for each job that ends while this worker runs, whoever ended it (`--on-done`).
        public var completionHook = CompletionHook()

        public init() {}
    }

    let openStore: @Sendable () throws -> any JobStore & ScheduleStore
    let options: Options
    /// Set by SIGINT/SIGTERM: running jobs go back to `available`, and the worker exits.
    let stop: CancellationFlag
    let log: @Sendable (String) -> Void
    let identity: WorkerIdentity
    /// How often the cron tick runs; fires are at minute granularity.
    static let tickSeconds = 5.0
    private let summary = Mutex(WorkerSummary())
    /// Ends at or after this (the store's clock) are announced; earlier ones are history.
    private let announceSince = Mutex(0.0)
    /// Hooks run one at a time, in the order the jobs ended, off the slots' threads.
    private let hookQueue = DispatchQueue(label: "kiln-completion-hooks")
    private let hooksRunning = DispatchGroup()

    public init(
        options: Options, stop: CancellationFlag, log: @escaping @Sendable (String) -> Void,
        openStore: @escaping @Sendable () throws -> any JobStore & ScheduleStore
    ) {
        self.options = options
        self.stop = stop
        self.log = log
        self.openStore = openStore
        identity = WorkerIdentity.current(name: options.name)
    }

    /// Runs the slots to the end of the mode (or a stop signal) and returns what they did; throws
    /// only when the queue itself cannot be opened.
    public func run() throws -> WorkerSummary {
        // Fail fast on a bad queue location, before any thread starts.
        let startTime = try openStore().currentTime()
        announceSince.withLock { $0 = startTime }
        // A render process that died leaves a closed pipe; writing to it must fail, not kill the worker.
        signal(SIGPIPE, SIG_IGN)
        let slots = options.mode == .once ? 1 : max(1, options.concurrency)
        let threads =
            options.threadsPerJob ?? max(1, ProcessInfo.processInfo.activeProcessorCount / slots)
        let group = DispatchGroup()
        let failures = Mutex<[String]>([])
        for slot in 0..<slots {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                do {
                    try slotLoop(threads: threads, runsScheduler: slot == 0)
                } catch {
                    log("worker slot \(slot): \(error)")
                    failures.withLock { $0.append("\(error)") }
                }
            }
            thread.name = "kiln-worker-\(slot)"
            thread.start()
        }
        group.wait()
        // The last jobs' hooks, each bounded by its own timeout.
        _ = hooksRunning.wait(timeout: .now() + options.completionHook.timeoutSeconds + 5)
        if let first = failures.withLock({ $0.first }) {
            throw QueueError.unavailable(reason: first)
        }
        return summary.withLock { $0 }
    }

    /// One slot: reap now and then, tick the scheduler (slot 0), claim, render, repeat.
    private func slotLoop(threads: Int, runsScheduler: Bool) throws {
        let connection = try StoreConnection(open: openStore, log: log)
        // Ends since the last look (a drained queue's last cancel) are announced before exiting.
        defer { if runsScheduler { announceEnds(connection) } }
        var nextReap = 0.0, nextTick = 0.0
        while stop.cancelledBySignal == nil {
            let now = ProcessInfo.processInfo.systemUptime
            let claim: Claim?
            do {
                if runsScheduler && now >= nextTick {
                    do {
                        _ = try connection.run {
                            try Scheduler(store: $0, roots: options.roots, limits: options.limits, log: log)
                                .tick()
                        }
                    } catch {
                        log("scheduler: \(error)")
                    }
                    nextTick = now + Self.tickSeconds * Double.random(in: 0.8...1.2)
                    // Jobs ended elsewhere: cancelled while waiting, reclaimed, or by another worker.
                    announceEnds(connection)
                }
                if now >= nextReap {
                    let reaped = try connection.run { try $0.reap() }
                    if reaped > 0 { log("reclaimed \(reaped) job(s) whose worker stopped") }
                    // 15 s ±20 %, so many workers do not reap in lockstep.
                    nextReap = now + options.policy.heartbeatSeconds * Double.random(in: 0.8...1.2)
                }
                claim = try connection.run { try $0.claim(as: identity) }
            } catch {
                // A queue that is down for a while is waited for by a long-running worker.
                guard options.mode == .forever else { throw error }
                log("queue unavailable (\(error)); retrying in 5 s")
                Thread.sleep(forTimeInterval: 5)
                continue
            }
            guard let claim else {
                if options.mode == .once { return }
                if options.mode == .drain {
                    guard try mayStillReclaim(connection) else { return }
                    nextReap = 0
                }
                Thread.sleep(forTimeInterval: options.pollSeconds)
                continue
            }
            execute(claim, connection: connection, threads: threads)
            announceEnds(connection)
            if options.mode == .once { return }
        }
    }

    /// Whether a worker with nothing due should wait rather than call the queue drained: a job
    /// reclaimed just now can be claimed at once, and a running job whose lease is no longer
    /// renewed (its worker died where this one cannot see, another host or container) will be
    /// reclaimable once the lease expires.
    private func mayStillReclaim(_ connection: StoreConnection) throws -> Bool {
        let reaped = try connection.run { try $0.reap() }
        if reaped > 0 {
            log("reclaimed \(reaped) job(s) whose worker stopped")
            return true
        }
        return try connection.run { try $0.unrenewedLeaseCount() } > 0
    }

    /// Hands each job that ended (and that no other worker took) to the completion hook.
    private func announceEnds(_ connection: StoreConnection) {
        let hook = options.completionHook
        guard !hook.isEmpty else { return }
        let since = announceSince.withLock { $0 }
        let ended: [QueuedJob]
        do {
            ended = try connection.run { try $0.takeUnannouncedEnds(since: since, limit: 50) }
        } catch {
            log("could not read ended jobs for the on-done hook: \(error)")
            return
        }
        for job in ended {
            hookQueue.async(group: hooksRunning) { [log] in hook.announce(job, log: log) }
        }
    }

    /// `options.progress` for one job's attempt.
    private func progress(of jobID: Int64) -> (@Sendable (Double) -> Void)? {
        guard let report = options.progress else { return nil }
        return { fraction in report(jobID, fraction) }
    }

    /// One attempt, rendered in a process of its own (`AttemptProcess`), then recorded with the
    /// claim's fencing token.
    func execute(_ claim: Claim, connection: StoreConnection, threads: Int) {
        let job = claim.job
        let what =
            job.isSoundtrack
            ? "the soundtrack of job \(job.parentID ?? 0)"
            : job.segmentIndex.map { "segment \($0 + 1) of \(job.segmentCount) of job \(job.parentID ?? 0)" }
                ?? (job.isAssembly ? "assembling \(job.segmentCount) segments" : "rendering")
        log("job \(job.id) (\(job.name)) attempt \(claim.attempt): \(what) → \(job.output)")
        let flag = CancellationFlag()
        let heartbeat = Heartbeat(
            claim: claim, policy: options.policy, flag: flag, stop: stop, openStore: openStore)
        heartbeat.start()
        let outcome: AttemptOutcome
        do {
            var request = AttemptRequest(
                job: job, threads: threads, frameHashes: options.frameHashes,
                limitOverrides: options.limits.overrides, roots: options.roots)
            if job.isSegment || job.isAssembly {
                request.familyRanges = try connection.run {
                    try $0.segments(ofJob: job.parentID ?? job.id).compactMap(\.frameRange)
                }
            }
            let process = AttemptProcess(
                settings: .init(
                    executable: options.renderExecutable, stallSeconds: options.stallSeconds,
                    stopGraceSeconds: options.stopGraceSeconds),
                heartbeat: heartbeat, flag: flag, log: { [log] in log("job \(job.id): \($0)") },
                progress: progress(of: job.id))
            outcome = process.run(request)
        } catch {
            outcome = .retryable("\(error)")
        }
        heartbeat.finish()
        if case .completed = outcome, let pause = FaultInjection.pauseAfterRename {
            // Test hook (fault-injection tests only): the window between rename and commit.
            log(
                "job \(job.id): fault injection (pause after rename): pausing \(pause) s before marking it completed"
            )
            Thread.sleep(forTimeInterval: pause)
        }
        record(outcome, claim: claim, connection: connection)
    }

    private func record(_ outcome: AttemptOutcome, claim: Claim, connection: StoreConnection) {
        let id = claim.job.id
        func attempt(
            _ body: (any JobStore) throws -> Bool, _ counter: WritableKeyPath<WorkerSummary, Int>,
            _ message: String
        ) {
            do {
                if try connection.run(body) {
                    summary.withLock { $0[keyPath: counter] += 1 }
                    log("job \(id): \(message)")
                } else {
                    summary.withLock { $0.lost += 1 }
                    log("job \(id): lease lost before \(message); another worker owns it now")
                }
            } catch {
                log(
                    "job \(id): could not record '\(message)': \(error) (the lease will expire and the job be retried)"
                )
            }
        }
        switch outcome {
        case .completed(let output, let frames, let seconds):
            attempt(
                { try $0.complete(claim) }, \.completed,
                "completed: \(output) (\(frames) frames, \(String(format: "%.1f", seconds)) s)")
        case .permanent(let message):
            attempt(
                { try $0.fail(claim, error: message, permanent: true) }, \.discarded, "discarded: \(message)")
        case .retryable(let message):
            let exhausted = claim.attempt >= claim.job.maxAttempts
            attempt(
                { try $0.fail(claim, error: message, permanent: false) }, exhausted ? \.discarded : \.failed,
                (exhausted ? "discarded after \(claim.attempt) attempts: " : "failed, will retry: ") + message
            )
        case .cancelled(let code) where code == CancellationFlag.cancelRequested:
            attempt({ try $0.acknowledgeCancel(claim) }, \.cancelled, "cancelled")
        case .cancelled(let code) where code == CancellationFlag.leaseLost:
            summary.withLock { $0.lost += 1 }
            log("job \(id): lease lost; stopped and removed the temp file")
        case .cancelled(let signal):
            attempt(
                { try $0.release(claim, reason: "worker stopped by signal \(signal)") }, \.released,
                "returned to the queue (signal \(signal))")
        }
    }
}
