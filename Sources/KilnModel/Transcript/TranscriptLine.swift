/// One line of a transcript: what is said from `start` on, in seconds of the video.
public struct TranscriptLine: Sendable, Hashable {
    public let start: Double
    /// The written end of a subtitle cue; nil when the line lasts until the next one starts (the
    /// JSON form), or until the video ends when it is the last.
    public let end: Double?
    public let text: String

    public init(start: Double, end: Double? = nil, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }
}
