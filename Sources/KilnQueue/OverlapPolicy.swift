import Foundation

/// Whether a fire may start while the schedule's previous run is still queued or running.
public enum OverlapPolicy: String, Sendable, CaseIterable {
    case skip, allow
}
