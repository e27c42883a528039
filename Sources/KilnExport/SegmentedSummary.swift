import Foundation
import KilnModel
import KilnScene

/// What a segmented export did.
public struct SegmentedSummary: Sendable {
    public let output: URL
    public let frames: Int
    public let segments: Int
    /// Segments found finished from an earlier, interrupted run (or another worker) and reused.
    public let reused: Int
    /// Segments rendered by this call.
    public let rendered: Int
    public let elapsedSeconds: Double
}
