import Foundation

/// One row of the queue as `kiln status` shows it.
public struct QueuedJob: Sendable, Equatable, Codable {
    public var id: Int64
    public var state: JobState
    public var name: String
    public var jobFile: String
    public var jobJSON: String
    public var baseDirectory: String
    public var variables: [String: String]
    public var output: String
    public var priority: Int
    public var runAt: Double
    public var attempt: Int
    public var maxAttempts: Int
    public var leaseToken: Int64
    public var progress: Double
    public var stage: String?
    public var cancelRequested: Bool
    public var idempotencyKey: String?
    public var lastError: String?
    public var createdAt: Double
    public var finishedAt: Double?
    public var scheduleID: Int64?
    public var fireTime: Double?
    /// A segment task: the job it is part of, its 0-based index and its frames.
    public var parentID: Int64?
    public var segmentIndex: Int?
    public var frameRange: Range<Int>?
    /// How many segments the job (or the job this segment is part of) is split into; 0 = none.
    public var segmentCount: Int
    /// The id of the first job queued by the same `kiln enqueue` (its own id when alone); nil
    /// for a segment, and for rows queued before batches existed.
    public var batchID: Int64?
    /// A draft's size and frames (`Draft.text`), applied by the worker that renders it; nil
    /// renders the job whole.
    public var draft: String? = nil

    /// One piece of a split job (a frame range, or the soundtrack).
    public var isSegment: Bool { parentID != nil }
    /// The piece of a split job that encodes its soundtrack.
    public var isSoundtrack: Bool { parentID != nil && frameRange == nil }
    /// A split job's own row: it assembles the segments once they are all completed.
    public var isAssembly: Bool { parentID == nil && segmentCount > 1 }
}
