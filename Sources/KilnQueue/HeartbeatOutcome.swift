import Foundation

/// What a heartbeat learned.
public enum HeartbeatOutcome: Sendable, Equatable {
    /// The lease is renewed; `cancelRequested` tells the worker to stop.
    case renewed(cancelRequested: Bool)
    /// Someone else owns the job now (reaped or cancelled): stop, delete temp files, write nothing.
    case leaseLost
}
