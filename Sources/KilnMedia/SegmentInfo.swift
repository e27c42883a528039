/// What `SegmentFile.probe` found in a segment: enough to decide whether a finished segment can be
/// reused on resume.
public struct SegmentInfo: Sendable, Equatable {
    /// Video packets, each one frame; their timestamps are checked to be frames 0…n−1 exactly once.
    public var frameCount: Int
    public var width: Int
    public var height: Int
    public var frameRateNumerator: Int
    public var frameRateDenominator: Int
    /// Whether the first packet in decode order is a keyframe (so the segment decodes on its own).
    public var startsWithKeyframe: Bool
    public var hasAudio: Bool

    public init(
        frameCount: Int, width: Int, height: Int, frameRateNumerator: Int, frameRateDenominator: Int,
        startsWithKeyframe: Bool, hasAudio: Bool
    ) {
        self.frameCount = frameCount
        self.width = width
        self.height = height
        self.frameRateNumerator = frameRateNumerator
        self.frameRateDenominator = frameRateDenominator
        self.startsWithKeyframe = startsWithKeyframe
        self.hasAudio = hasAudio
    }
}
