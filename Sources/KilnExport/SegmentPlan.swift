/// How a video is split into independently encoded frame ranges (scale-out.md). Every segment is
/// its own encoder run, so it starts with an IDR frame and no frame references across a join;
/// ranges are contiguous and cover every frame exactly once.
public struct SegmentPlan: Sendable, Equatable {
    /// Half-open frame ranges, in order.
    public let ranges: [Range<Int>]

    public var count: Int { ranges.count }
    public var isSegmented: Bool { ranges.count > 1 }

    /// What the user asked for.
    public enum Request: Sendable, Equatable {
        /// Split when the video is long (`automaticThresholdSeconds`), else one piece.
        case automatic
        case count(Int)
        case seconds(Double)
    }

    /// Longer videos are split automatically, so an interrupted render resumes from its
    /// finished pieces; each piece costs one extra keyframe and an encoder restart.
    public static let automaticThresholdSeconds = 60.0
    public static let automaticSegmentSeconds = 30.0
    /// Bounds an untrusted request: more pieces than this only adds joins.
    public static let maximumSegments = 10_000
    /// A piece shorter than this is not worth its keyframe (unless the video itself is shorter).
    public static let minimumFrames = 2

    public init(ranges: [Range<Int>]) {
        self.ranges = ranges
    }

    /// `frameCount` frames at `framesPerSecond`, split as requested: equal lengths to within one
    /// frame, never more pieces than `frameCount / minimumFrames`.
    public init(frameCount: Int, framesPerSecond: Double, request: Request) {
        let wanted: Int
        switch request {
        case .automatic:
            let seconds = Double(frameCount) / framesPerSecond
            wanted =
                seconds >= Self.automaticThresholdSeconds
                ? Int((seconds / Self.automaticSegmentSeconds).rounded(.up)) : 1
        case .count(let n):
            wanted = n
        case .seconds(let s):
            let frames = max(1, Int((s * framesPerSecond).rounded()))
            wanted = (frameCount + frames - 1) / frames
        }
        let pieces = max(1, min(wanted, Self.maximumSegments, frameCount / Self.minimumFrames))
        ranges = (0..<pieces).map { i in
            (i * frameCount / pieces)..<((i + 1) * frameCount / pieces)
        }
    }
}
