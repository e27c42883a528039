import Foundation
import KilnModel
import KilnQueue

/// Everything one attempt needs, sent by the worker to its render process: the claimed job, the
/// frame ranges of its family when it is part of a split job, and the worker's render settings.
public struct AttemptRequest: Codable, Sendable {
    public var job: QueuedJob
    /// A split job's segment ranges in frame order (queried by the worker, which holds the store).
    public var familyRanges: [Range<Int>]?
    public var threads: Int
    public var frameHashes: String?
    /// The worker's `--limit`s, applied to every job it runs whatever it was enqueued under.
    public var limitOverrides: [String: Double] = [:]
    /// The worker's roots: the job is confined by them, not by those `enqueue` had.
    public var roots = JobRoots()
}
