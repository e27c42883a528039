/// Why a transcript could not be read, phrased as what was expected and what was found.
public struct TranscriptError: Error, Sendable, Hashable, CustomStringConvertible {
    public let file: String
    /// 1-based; nil for problems with the whole file (missing, too large, unknown format).
    public let line: Int?
    /// 1-based, in Unicode scalars; only JSON has columns, subtitle formats are line-oriented.
    public let column: Int?
    public let message: String

    public init(file: String, line: Int?, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `episode.srt:12: expected …`, `talk.json:3:15: segments[2].start: expected …`, or
    /// `talk.json: …` for whole-file problems.
    public var description: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text + ": " + message
    }
}
