/// SubRip: blocks of a cue number, a `HH:MM:SS,mmm --> HH:MM:SS,mmm` timing line and one or more
/// text lines, separated by blank lines.
enum SRTParser {
    static func parse(_ bytes: [UInt8], file: String) throws(TranscriptError) -> Transcript {
        var reader = TranscriptTextReader(bytes: bytes, file: file)
        var lines: [TranscriptLine] = []
        var previousNumber: Int?
        var previousTiming: CueTiming?
        while let numberLine = try reader.nextNonBlank() {
            if let problem = TranscriptParser.countProblem(lines.count + 1, noun: "cue") {
                throw reader.error(problem)
            }
            guard let number = cueNumber(numberLine) else {
                throw reader.error("expected a cue number, got \(TranscriptTextReader.describe(numberLine))")
            }
            if let previousNumber, number <= previousNumber {
                throw reader.error("expected a cue number greater than \(previousNumber), got \(number)")
            }
            previousNumber = number
            let numberLineNumber = reader.lineNumber
            let timingLine = try reader.next()
            guard let timingLine else {
                throw reader.error(
                    "expected a timing line \(CueTiming.Style.srt.example) after cue number \(number), "
                        + "got the end of the file", line: numberLineNumber)
            }
            let timing = try CueTimingCheck.timing(
                timingLine, style: .srt, after: previousTiming, reader: reader)
            previousTiming = timing
            let timingLineNumber = reader.lineNumber
            var textLines: [String] = []
            var ending: String?
            while true {
                ending = try reader.next()
                guard let line = ending, !TranscriptTextReader.isBlank(line) else { break }
                if line.contains("-->"), CueTiming(line, style: .srt) != nil {
                    throw reader.error(
                        "expected a blank line and a cue number before this timing line")
                }
                textLines.append(line)
            }
            guard !textLines.isEmpty else {
                throw reader.error(
                    "expected the cue's text after its timing line, got \(TranscriptTextReader.describe(ending))",
                    line: timingLineNumber)
            }
            let text = CueText.plainText(of: textLines, markup: .srt)
            if let problem = TranscriptParser.textProblem(text) {
                throw reader.error(problem, line: timingLineNumber + 1)
            }
            lines.append(TranscriptLine(start: timing.start, end: timing.end, text: text))
        }
        return Transcript(lines: lines)
    }

    /// A line of ASCII digits, possibly padded with spaces.
    static func cueNumber(_ line: String) -> Int? {
        let trimmed = CueText.trimmed(line)
        guard (1...9).contains(trimmed.utf8.count), trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        return Int(trimmed)
    }
}
