/// One line of a transcript: what is said from `start` on, in seconds of the video.
public struct TranscriptLine: Sendable, Hashable {
    public let start: Double
    /// The written end of a subtitle cue; nil when the line lasts until the next one starts (the
    /// JSON form), or until the video ends when it is the last.
    public let end: Double?
    public let text: String
    /// When the words from a place in `text` on are said: WebVTT's inline timestamps
    /// (`<00:00:01.500>`), in increasing order, each after `start` and before `end`. Empty when
    /// the file gives no word times; a line's own start is not repeated here.
    public let wordTimes: [WordTime]

    /// A place in the text and when speech reaches it.
    public struct WordTime: Sendable, Hashable {
        /// UTF-8 offset in the line's text of the first character said from `start` on.
        public let offset: Int
        public let start: Double

        public init(offset: Int, start: Double) {
            self.offset = offset
            self.start = start
        }
    }

    public init(start: Double, end: Double? = nil, text: String, wordTimes: [WordTime] = []) {
        self.start = start
        self.end = end
        self.text = text
        self.wordTimes = wordTimes
    }
}
