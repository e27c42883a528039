import Foundation

/// What a heartbeat (or a progress report between heartbeats) learned.
public enum HeartbeatOutcome: Sendable, Equatable {
    /// The lease is still held (a heartbeat renewed it); `cancelRequested` tells the worker to stop.
    case renewed(cancelRequested: Bool)
    /// Someone else owns the job now (reaped or cancelled): stop, delete temp files, write nothing.
    case leaseLost
}
