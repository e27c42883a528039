import Foundation
import Synchronization

/// Set from a signal handler (or a test, or a queue worker's heartbeat), polled by the pipeline
/// once per frame.
public final class CancellationFlag: Sendable {
    private let signal = Atomic<Int32>(0)

    /// Stop codes that are not signals: a user cancelled the queued job, or its lease was lost.
    public static let cancelRequested: Int32 = -1
    public static let leaseLost: Int32 = -2

    public init() {}

    /// Records the first signal (or stop code) that asked to stop.
    public func cancel(signal number: Int32) {
        _ = signal.compareExchange(expected: 0, desired: number, ordering: .relaxed)
    }

    public var cancelledBySignal: Int32? {
        let value = signal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }
}
