import Foundation

/// What a worker did, for its exit message and tests.
public struct WorkerSummary: Sendable, Equatable {
    public var completed = 0
    public var failed = 0
    public var discarded = 0
    public var cancelled = 0
    public var released = 0
    public var lost = 0
}
