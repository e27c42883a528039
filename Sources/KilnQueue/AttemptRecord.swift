import Foundation

/// One attempt at a job: who ran it and how it ended (`kiln logs`).
public struct AttemptRecord: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        case completed, failed, discarded, crashed, interrupted, cancelled, leaseLost = "lease_lost"
    }
    public var jobID: Int64
    public var number: Int
    public var leaseToken: Int64
    public var worker: String
    public var host: String
    public var pid: Int32
    public var startedAt: Double
    public var endedAt: Double?
    public var outcome: Outcome?
    public var error: String?
}
