import Foundation

/// A queued export's state (design note: queue.md). `scheduled`, `available` and `retryable` wait
/// for a worker; `running` holds a lease; the last three are terminal: every accepted job ends in
/// exactly one of them.
public enum JobState: String, Sendable, CaseIterable, Codable {
    case scheduled, available, running, retryable, completed, discarded, cancelled

    public var isTerminal: Bool { self == .completed || self == .discarded || self == .cancelled }
    static let waiting: [JobState] = [.scheduled, .available, .retryable]
}
