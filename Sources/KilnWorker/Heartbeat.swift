import Foundation
import KilnExport
import KilnModel
import KilnQueue
import Synchronization

/// The lease keeper of one attempt: a thread with its own store connection that renews the lease
/// every heartbeat and, between renewals, looks twice a second whether the job was cancelled,
/// storing its progress with that look about once a second (`kiln status` stays live, a cancel
/// stops the render within a second, and the store gets at most one write a second per job). It
/// turns a cancel request, a lost lease or a stop signal into the export's cancellation, and gives
/// up on its own when it cannot renew for half a lease.
final class Heartbeat: Sendable {
    /// How often a running job's progress is stored, at most.
    static let progressSeconds = 1.0
    /// How often the job's cancel request is looked at between renewals.
    static let checkSeconds = 0.5

    private let claim: Claim
    private let policy: RetryPolicy
    private let flag: CancellationFlag
    private let stop: CancellationFlag
    private let openStore: @Sendable () throws -> any JobStore & ScheduleStore
    private let progress = Mutex((latest: 0.0, finished: false))
    /// The connection, and the progress last stored and when. A lock of its own, so the pipe's
    /// reader never waits on the database to report progress.
    private let connection = Mutex((store: nil as (any JobStore)?, stored: Stored(progress: -1, at: 0)))
    private let done = DispatchSemaphore(value: 0)

    struct Stored {
        var progress: Double
        var at: Double
    }

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

    func report(_ progress: Double) { self.progress.withLock { $0.latest = progress } }

    func start() {
        let thread = Thread { [self] in
            loop()
            done.signal()
        }
        thread.name = "kiln-heartbeat"
        thread.start()
    }

    func finish() {
        progress.withLock { $0.finished = true }
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
        var nextCheck = lastRenewal + Self.checkSeconds
        _ = beat(stage: "rendering")
        while !progress.withLock({ $0.finished }) {
            Thread.sleep(forTimeInterval: 0.05)
            if let signal = stop.cancelledBySignal { flag.cancel(signal: signal) }
            let now = ProcessInfo.processInfo.systemUptime
            if now >= nextBeat {
                nextBeat = now + policy.heartbeatSeconds
                nextCheck = now + Self.checkSeconds
                if beat(stage: "rendering") != nil {
                    lastRenewal = now
                } else if now - lastRenewal > policy.leaseSeconds / 2 {
                    flag.cancel(signal: CancellationFlag.leaseLost)
                }
            } else if now >= nextCheck {
                nextCheck = now + Self.checkSeconds
                check(at: now)
            }
        }
    }

    /// Between renewals: stores the progress when it moved and the last store is a second old,
    /// otherwise only reads. A store it cannot reach is left to the renewals to give up on.
    private func check(at now: Double) {
        let latest = progress.withLock { $0.latest }
        _ = heed(
            withStore { store, stored in
                let due = latest != stored.progress && now - stored.at >= Self.progressSeconds
                let outcome = try store.reportProgress(claim, due ? latest : nil)
                if due { stored = Stored(progress: latest, at: now) }
                return outcome
            })
    }

    /// true: renewed; false: the lease is lost (the export is told to stop); nil: the store could
    /// not be reached this time.
    private func beat(stage: String) -> Bool? {
        let latest = progress.withLock { $0.latest }
        return heed(
            withStore { store, stored in
                let outcome = try store.heartbeat(claim, progress: latest, stage: stage)
                stored = Stored(progress: latest, at: ProcessInfo.processInfo.systemUptime)
                return outcome
            })
    }

    /// One statement on the heartbeat's connection, opened again after a failure; nil when the
    /// store could not be reached. One connection, used by one thread at a time: the lock covers
    /// the call itself, since `renewNow` runs on the pipe reader's thread.
    private func withStore(
        _ body: (any JobStore, inout Stored) throws -> HeartbeatOutcome
    ) -> HeartbeatOutcome? {
        connection.withLock { c in
            do {
                let store = try c.store ?? openStore()
                c.store = store
                return try body(store, &c.stored)
            } catch {
                c.store = nil
                return nil
            }
        }
    }

    /// Acts on what the store said: true when the lease is held, false when it is lost (the export
    /// is told to stop), nil when the store could not be reached.
    private func heed(_ outcome: HeartbeatOutcome?) -> Bool? {
        switch outcome {
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
