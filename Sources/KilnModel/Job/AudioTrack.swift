import Foundation

/// The job's soundtrack: one audio file placed on the timeline, encoded once as AAC and muxed with
/// the video, trimmed or padded with silence to the video's duration.
public struct AudioTrack: Sendable, Hashable {
    /// Resolved relative to the job file.
    public var path: URL
    /// Timeline seconds at which the audio starts.
    public var offset: Double
    /// Seconds cut from the start of the file.
    public var trimStart: Double
    /// File time at which the audio stops; nil plays to the file's end.
    public var trimEnd: Double?
    /// Linear gain: 1 plays as recorded, 0.5 is about −6 dB.
    public var volume: Double
    public var fadeIn: Double
    public var fadeOut: Double

    public init(
        path: URL, offset: Double = 0, trimStart: Double = 0, trimEnd: Double? = nil, volume: Double = 1,
        fadeIn: Double = 0, fadeOut: Double = 0
    ) {
        self.path = path
        self.offset = offset
        self.trimStart = trimStart
        self.trimEnd = trimEnd
        self.volume = volume
        self.fadeIn = fadeIn
        self.fadeOut = fadeOut
    }
}
