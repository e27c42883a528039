import Foundation
import KilnExport
import KilnModel
import KilnQueue
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How long a worker runs.
public enum WorkerMode: Sendable {
    /// Until stopped by a signal, polling for due jobs.
    case forever
    /// Until no job is due, then exit.
    case drain
    /// One job (or none if none is due), then exit.
    case once
}

/// What a worker did, for its exit message and tests.
public struct WorkerSummary: Sendable, Equatable {
    public var completed = 0
    public var failed = 0
    public var discarded = 0
    public var cancelled = 0
    public var released = 0
    public var lost = 0
}

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
        _ = try openStore()  // fail fast on a bad queue location, before any thread starts
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
        if let first = failures.withLock({ $0.first }) {
            throw QueueError.unavailable(reason: first)
        }
        return summary.withLock { $0 }
    }

    /// One slot: reap now and then, tick the scheduler (slot 0), claim, render, repeat.
    private func slotLoop(threads: Int, runsScheduler: Bool) throws {
        let connection = try StoreConnection(open: openStore, log: log)
        var nextReap = 0.0, nextTick = 0.0
        while stop.cancelledBySignal == nil {
            let now = ProcessInfo.processInfo.systemUptime
            let claim: Claim?
            do {
                if runsScheduler && now >= nextTick {
                    do {
                        _ = try connection.run {
                            try Scheduler(store: $0, roots: options.roots, log: log).tick()
                        }
                    } catch {
                        log("scheduler: \(error)")
                    }
                    nextTick = now + Self.tickSeconds * Double.random(in: 0.8...1.2)
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
                heartbeat: heartbeat, flag: flag, log: { [log] in log("job \(job.id): \($0)") })
            outcome = process.run(request)
        } catch {
            outcome = .retryable("\(error)")
        }
        heartbeat.finish()
        if case .completed = outcome, let pause = FaultInjection.pauseAfterRename {
            // Test hook (fault-injection tests only): the window between rename and commit.
            log(
                "job \(job.id): KILN_FAULT_PAUSE_AFTER_RENAME: pausing \(pause) s before marking it completed"
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

/// The lease keeper of one attempt: a thread with its own store connection that renews the
/// lease with progress every heartbeat, turns a cancel request, a lost lease or a stop signal
/// into the export's cancellation, and gives up on its own when it cannot renew for half a lease.
final class Heartbeat: Sendable {
    private let claim: Claim
    private let policy: RetryPolicy
    private let flag: CancellationFlag
    private let stop: CancellationFlag
    private let openStore: @Sendable () throws -> any JobStore & ScheduleStore
    private let state = Mutex((progress: 0.0, finished: false, store: nil as (any JobStore)?))
    private let done = DispatchSemaphore(value: 0)

    init(
        claim: Claim, policy: RetryPolicy, flag: CancellationFlag, stop: CancellationFlag,
        openStore: @escaping @Sendable () throws -> any JobStore & ScheduleStore
    ) {
        self.claim = claim
        self.policy = policy
        self.flag = flag
        self.stop = stop
        self.openStore = openStore
    }

    func report(_ progress: Double) { state.withLock { $0.progress = progress } }

    func start() {
        let thread = Thread { [self] in
            loop()
            done.signal()
        }
        thread.name = "kiln-heartbeat"
        thread.start()
    }

    func finish() {
        state.withLock { $0.finished = true }
        done.wait()
    }

    /// A fenced renewal just before the output is renamed into place: false if the lease is gone.
    /// A store that cannot be reached (a server restarting) is tried again for up to a quarter
    /// of the lease — still inside it — before the finished file is given up.
    func renewNow() -> Bool {
        let deadline = ProcessInfo.processInfo.systemUptime + policy.leaseSeconds / 4
        while flag.cancelledBySignal == nil {
            if let renewed = beat(stage: "committing") { return renewed }
            guard ProcessInfo.processInfo.systemUptime < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.25)
        }
        return false
    }

    private func loop() {
        var lastRenewal = ProcessInfo.processInfo.systemUptime
        var nextBeat = lastRenewal + policy.heartbeatSeconds
        _ = beat(stage: "rendering")
        while !state.withLock({ $0.finished }) {
            Thread.sleep(forTimeInterval: 0.05)
            if let signal = stop.cancelledBySignal { flag.cancel(signal: signal) }
            let now = ProcessInfo.processInfo.systemUptime
            guard now >= nextBeat else { continue }
            nextBeat = now + policy.heartbeatSeconds
            if beat(stage: "rendering") != nil {
                lastRenewal = now
            } else if now - lastRenewal > policy.leaseSeconds / 2 {
                flag.cancel(signal: CancellationFlag.leaseLost)
            }
        }
    }

    /// true: renewed; false: the lease is lost (the export is told to stop); nil: the store could
    /// not be reached this time.
    private func beat(stage: String) -> Bool? {
        // One connection, used by one thread at a time: the lock covers the call itself, since
        // `renewNow` runs on the export's thread.
        let renewed: HeartbeatOutcome? = state.withLock { s in
            do {
                let store = try s.store ?? openStore()
                s.store = store
                return try store.heartbeat(claim, progress: s.progress, stage: stage)
            } catch {
                s.store = nil
                return nil
            }
        }
        switch renewed {
        case .renewed(let cancelRequested):
            if cancelRequested { flag.cancel(signal: CancellationFlag.cancelRequested) }
            return true
        case .leaseLost:
            flag.cancel(signal: CancellationFlag.leaseLost)
            return false
        case nil:
            return nil
        }
    }
}

/// A worker slot's own connection to the queue, reopened when it is lost (a PostgreSQL server
/// restarted, a network blip): the statement is retried on a new connection a few times, well
/// within the lease the heartbeat keeps alive on its own connection.
final class StoreConnection {
    private let open: @Sendable () throws -> any JobStore & ScheduleStore
    private let log: @Sendable (String) -> Void
    private var store: any JobStore & ScheduleStore

    init(
        open: @escaping @Sendable () throws -> any JobStore & ScheduleStore,
        log: @escaping @Sendable (String) -> Void
    )
        throws
    {
        self.open = open
        self.log = log
        store = try open()
    }

    func run<T>(_ body: (any JobStore & ScheduleStore) throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                return try body(store)
            } catch let error as PostgresError where error.isConnectionFailure && attempt < 3 {
                attempt += 1
                log("lost the queue connection (\(error)); reconnecting (try \(attempt) of 3)")
                Thread.sleep(forTimeInterval: 0.5 * Double(attempt))
                if let fresh = try? open() { store = fresh }
            }
        }
    }
}
