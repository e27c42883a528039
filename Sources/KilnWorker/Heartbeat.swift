import Foundation
import KilnExport
import KilnModel
import KilnQueue
import Synchronization

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
