import Foundation

/// One job load or render at a time, with a bounded line of requests waiting for it. A load
/// decodes every picture of the job and a render uses every core, so running them side by side
/// only multiplies memory; and a line without a bound lets a flood of requests hold a thread and
/// a connection each for as long as the line takes.
public final class RenderQueue: @unchecked Sendable {
    // @unchecked: `running` and `queued` are read and written under `condition`.
    public static let defaultWaiting = 8

    /// Requests that may wait while one runs; more are turned away.
    public let waiting: Int
    private let condition = NSCondition()
    private var running = false
    private var queued = 0

    public init(waiting: Int = defaultWaiting) {
        self.waiting = max(0, waiting)
    }

    /// `work`'s result, run when its turn comes; nil at once when `waiting` requests are
    /// already in line.
    public func ifRoom<T>(_ work: () -> T) -> T? {
        condition.lock()
        if running, queued >= waiting {
            condition.unlock()
            return nil
        }
        return runWithLockHeld(work)
    }

    /// `work`'s result, waiting as long as its turn takes (the file watcher: one caller).
    public func always<T>(_ work: () -> T) -> T {
        condition.lock()
        return runWithLockHeld(work)
    }

    private func runWithLockHeld<T>(_ work: () -> T) -> T {
        queued += 1
        while running { condition.wait() }
        queued -= 1
        running = true
        condition.unlock()
        defer {
            condition.lock()
            running = false
            condition.signal()
            condition.unlock()
        }
        return work()
    }
}
