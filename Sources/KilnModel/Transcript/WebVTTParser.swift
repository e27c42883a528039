/// WebVTT: a `WEBVTT` line, header lines up to a blank line, then blocks separated by blank lines:
/// NOTE, STYLE and REGION blocks (skipped) and cues (an optional identifier, a timing line with
/// optional settings, text lines).
enum WebVTTParser {
    static func parse(_ bytes: [UInt8], file: String) throws(TranscriptError) -> Transcript {
        var reader = TranscriptTextReader(bytes: bytes, file: file)
        let signature = try reader.next()
        guard let signature, isSignature(signature) else {
            throw reader.error(
                "expected \"WEBVTT\" on the first line, got \(TranscriptTextReader.describe(signature))",
                line: 1)
        }
        while let line = try reader.next(), !TranscriptTextReader.isBlank(line) {
            if line.contains("-->") {
                throw reader.error(
                    "expected a blank line between the header and the first cue, got a timing line")
            }
        }
        var lines: [TranscriptLine] = []
        var previousTiming: CueTiming?
        while let first = try reader.nextNonBlank() {
            if isSkippedBlock(first) {
                try reader.skipBlock()
                continue
            }
            if let problem = TranscriptParser.countProblem(lines.count + 1, noun: "cue") {
                throw reader.error(problem)
            }
            var timingLine = first
            if !first.contains("-->") {
                let identifierLineNumber = reader.lineNumber
                let next = try reader.next()
                // A line without an arrow cannot be a mistyped timing line, so the likelier
                // mistake is a text block missing its timing: say so.
                guard let next, next.contains("-->") else {
                    throw reader.error(
                        "expected a timing line \(CueTiming.Style.webVTT.example) after the cue identifier "
                            + "on line \(identifierLineNumber), got \(TranscriptTextReader.describe(next))",
                        line: next == nil ? identifierLineNumber : nil)
                }
                timingLine = next
            }
            let timing = try CueTimingCheck.timing(
                timingLine, style: .webVTT, after: previousTiming, reader: reader)
            previousTiming = timing
            let timingLineNumber = reader.lineNumber
            var textLines: [String] = []
            while let line = try reader.next(), !TranscriptTextReader.isBlank(line) {
                if line.contains("-->") {
                    throw reader.error(
                        "expected a blank line before this timing line; cue text cannot contain \"-->\"")
                }
                textLines.append(line)
            }
            // An empty cue is valid WebVTT (it clears the screen), so it stays as an empty line.
            let text = CueText.plainText(of: textLines, markup: .webVTT)
            if let problem = TranscriptParser.textProblem(text) {
                throw reader.error(problem, line: timingLineNumber + 1)
            }
            let marks = CueWordTimes.marks(in: textLines)
            var previousStart = timing.start
            for mark in marks {
                // As WebVTT asks: each after the cue's start (or the word before) and before its end.
                guard mark.start >= previousStart, mark.start <= timing.end else {
                    throw reader.error(
                        "expected word times in order from the cue's start \(timing.startText) to its end "
                            + "\(timing.endText), got <\(mark.written)>",
                        line: timingLineNumber + 1 + mark.lineIndex)
                }
                previousStart = mark.start
            }
            lines.append(
                TranscriptLine(
                    start: timing.start, end: timing.end, text: text,
                    wordTimes: CueWordTimes.wordTimes(marks, in: text)))
        }
        return Transcript(lines: lines)
    }

    /// `WEBVTT` alone or followed by a space or tab and any text.
    static func isSignature(_ line: String) -> Bool {
        startsWithKeyword(line, "WEBVTT")
    }

    private static func isSkippedBlock(_ line: String) -> Bool {
        startsWithKeyword(line, "NOTE") || startsWithKeyword(line, "STYLE")
            || startsWithKeyword(line, "REGION")
    }

    private static func startsWithKeyword(_ line: String, _ keyword: String) -> Bool {
        guard line.hasPrefix(keyword) else { return false }
        let rest = line.utf8.dropFirst(keyword.utf8.count)
        return rest.isEmpty || rest.first == 0x20 || rest.first == 0x09
    }
}
