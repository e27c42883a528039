import Foundation

/// How long a worker runs.
public enum WorkerMode: Sendable {
    /// Until stopped by a signal, polling for due jobs.
    case forever
    /// Until no job is due, then exit.
    case drain
    /// One job (or none if none is due), then exit.
    case once
}
