/// What `SegmentAssembler.assemble` wrote.
public struct AssemblySummary: Sendable, Equatable {
    public var frameCount: Int
    /// Frames taken from each segment, in order.
    public var segmentFrameCounts: [Int]
    public var frameRateNumerator: Int
    public var frameRateDenominator: Int
    /// frames · den / num.
    public var durationSeconds: Double
    /// Samples per channel at `AudioFormat.sampleRate` encoded here; nil without audio or when an
    /// encoded track was copied.
    public var audioSamples: Int?

    public init(
        frameCount: Int, segmentFrameCounts: [Int], frameRateNumerator: Int, frameRateDenominator: Int,
        durationSeconds: Double, audioSamples: Int?
    ) {
        self.frameCount = frameCount
        self.segmentFrameCounts = segmentFrameCounts
        self.frameRateNumerator = frameRateNumerator
        self.frameRateDenominator = frameRateDenominator
        self.durationSeconds = durationSeconds
        self.audioSamples = audioSamples
    }
}
