import Foundation
import KilnModel

/// What the render needs from the process that holds the lease.
public protocol AttemptSupervisor: Sendable {
    func report(progress: Double)
    func log(_ message: String)
    /// A fenced lease renewal just before the output is renamed into place: false when the lease
    /// is gone and the finished file must be given up.
    func renewBeforeCommit() -> Bool
}
