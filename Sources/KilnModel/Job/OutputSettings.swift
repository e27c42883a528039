import Foundation

/// What to encode: file, frame geometry, timing and x264 settings.
public struct OutputSettings: Sendable, Hashable {
    /// Resolved relative to the job file.
    public var path: URL
    /// Even (yuv420p subsamples chroma 2×2), 16…8192.
    public var width: Int
    public var height: Int
    public var frameRate: Rational
    public var frameCount: Int
    /// x264 constant rate factor, 0…51 (lower is better quality).
    public var crf: Double
    public var preset: String
    /// Keyframe interval in frames.
    public var gop: Int
    /// The size the job's layers are laid out in: the job's own width and height. A draft
    /// (`Draft`) renders the same layout into a smaller `width` × `height`.
    public var layoutWidth: Int
    public var layoutHeight: Int
    /// The job frame the video's first frame shows: 0, or where a draft of part of the job starts.
    public var startFrame: Int = 0

    public init(
        path: URL, width: Int, height: Int, frameRate: Rational, frameCount: Int,
        crf: Double = 18, preset: String = "medium", gop: Int? = nil
    ) {
        self.path = path
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.crf = crf
        self.preset = preset
        self.gop = gop ?? Self.defaultGOP(for: frameRate)
        layoutWidth = width
        layoutHeight = height
    }

    public static let presets = [
        "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow",
        "placebo",
    ]
    public static let dimensionRange = 16...8192
    public static let crfRange = 0.0...51.0
    public static let gopRange = 1...1000
    public static let maximumFrameRate = 240
    public static let maximumFrameCount = 10_000_000
    public static let maximumDurationSeconds = 24 * 60 * 60

    /// Two seconds between keyframes: seekable without bloating the file.
    public static func defaultGOP(for frameRate: Rational) -> Int {
        min(max(Int((2 * frameRate.doubleValue).rounded()), gopRange.lowerBound), gopRange.upperBound)
    }

    /// Exact time of frame n: n·den/num seconds, computed with one rounding so that frame
    /// times at NTSC rates do not accumulate error.
    public func time(ofFrame n: Int) -> Double {
        let (product, overflow) = n.multipliedReportingOverflow(by: frameRate.denominator)
        if overflow { return Double(n) * Double(frameRate.denominator) / Double(frameRate.numerator) }
        return Double(product) / Double(frameRate.numerator)
    }

    /// The video's duration (frameCount / fps).
    public var durationSeconds: Double { time(ofFrame: frameCount) }

    /// The job's time that the video's frame n shows: the same as `time(ofFrame:)` unless a
    /// draft starts part-way into the job.
    public func timelineTime(ofFrame n: Int) -> Double { time(ofFrame: startFrame + n) }
}
