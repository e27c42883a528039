/// The checks SubRip and WebVTT share for a cue's timing line.
enum CueTimingCheck {
    /// Parses the line the reader returned last and checks that the cue ends after it starts and
    /// does not start before the previous cue: lines are kept in start order, and a cue out of
    /// order is far more often a typo than intended.
    static func timing(
        _ line: String, style: CueTiming.Style, after previous: CueTiming?, reader: TranscriptTextReader
    ) throws(TranscriptError) -> CueTiming {
        guard let timing = CueTiming(line, style: style) else {
            throw reader.error(
                "expected a timing line \(style.example), got \(TranscriptTextReader.describe(line))")
        }
        guard timing.end > timing.start else {
            throw reader.error(
                "expected the cue to end after its start \(timing.startText), got the end \(timing.endText)")
        }
        if let previous, timing.start < previous.start {
            throw reader.error(
                "expected cues in order of their start, got \(timing.startText) after a cue starting at "
                    + previous.startText)
        }
        return timing
    }
}
