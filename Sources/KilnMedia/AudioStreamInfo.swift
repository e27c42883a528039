/// What a file's best audio stream is, before any conversion.
public struct AudioStreamInfo: Sendable {
    public var codecName: String
    public var sampleRate: Int
    public var channels: Int
    /// The stream's start time (0 when the container gives none), seconds.
    public var startSeconds: Double
    /// The stream's duration from the container, or the file's when the stream has none; 0 if unknown.
    public var durationSeconds: Double
}
