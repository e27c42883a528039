import Synchronization

/// Set from a signal handler (or a test), polled by the pipeline once per frame.
public final class CancellationFlag: Sendable {
    private let signal = Atomic<Int32>(0)

    public init() {}

    /// Records the first signal that asked to stop.
    public func cancel(signal number: Int32) {
        _ = signal.compareExchange(expected: 0, desired: number, ordering: .relaxed)
    }

    public var cancelledBySignal: Int32? {
        let value = signal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }
}
