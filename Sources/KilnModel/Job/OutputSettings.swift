import Foundation

/// What to encode: file, format, frame geometry, timing and encoder settings.
public struct OutputSettings: Sendable, Hashable {
    /// Resolved relative to the job file; a folder for a PNG sequence.
    public var path: URL
    public var format: OutputFormat
    /// Whether the job named `format` (`output.format`) rather than leaving it to the path: an
    /// inferred format follows a `-o` path, a named one must match it.
    public var formatIsNamed: Bool
    /// Even (yuv420p subsamples chroma 2×2), 16…8192.
    public var width: Int
    public var height: Int
    public var frameRate: Rational
    public var frameCount: Int
    /// Constant rate factor of x264/x265 (0…51) or libvpx (0…63); lower is better quality.
    /// Unused by the formats without one (`OutputFormat.crfRange`).
    public var crf: Double
    /// x264/x265 speed preset or libvpx deadline (`OutputFormat.presets`).
    public var preset: String
    /// Whether the job wrote `crf` and `preset` rather than taking its format's defaults: written
    /// ones follow the job to another format only if that format reads them alike.
    public var crfIsNamed = false
    public var presetIsNamed = false
    /// GIF only (`kiln render --gif-max-bytes`): the most bytes the file may take.
    public var maxBytes: Int?
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
        crf: Double = 18, preset: String = "medium", gop: Int? = nil, format: OutputFormat = .h264,
        formatIsNamed: Bool = false
    ) {
        self.path = path
        self.format = format
        self.formatIsNamed = formatIsNamed
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

    public static let dimensionRange = 16...8192
    /// The widest `crf` any encoder takes; each format checks its own (`OutputFormat.crfRange`).
    public static let crfRange = 0.0...63.0
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
