import Foundation
import KilnModel

/// How an attempt ended, as the render process reports it (or the worker concludes when the
/// process dies or stalls).
public enum AttemptOutcome: Codable, Sendable, Equatable {
    case completed(output: String, frames: Int, seconds: Double)
    /// No retry can mend it: the job is discarded.
    case permanent(String)
    /// Charged to the attempt; retried with backoff until the attempts run out.
    case retryable(String)
    /// Stopped by a stop code of `CancellationFlag` or a signal.
    case cancelled(code: Int32)
}
