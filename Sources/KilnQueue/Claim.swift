import Foundation

/// A claimed job: the fencing token every later write must carry.
public struct Claim: Sendable, Equatable {
    public let job: QueuedJob
    public let leaseToken: Int64
    public let attempt: Int
}
