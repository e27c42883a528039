import Foundation

/// Reads a transcript in any of the `TranscriptFormat`s into timed lines, stopping at the first
/// problem with its line number.
public enum TranscriptParser {
    /// Transcripts are small; the caps keep a mistaken or hostile input from exhausting memory.
    public static let maximumInputSize = 64 * 1024 * 1024
    public static let maximumLineCount = 100_000
    /// In characters (grapheme clusters), as shown.
    public static let maximumTextLength = 10_000

    /// `format` nil: from the file's extension (`.json`, `.srt`, `.vtt`), else from the content.
    public static func parse(
        _ bytes: [UInt8], file: String, format: TranscriptFormat? = nil, limits: ResourceLimits? = nil
    ) throws(TranscriptError) -> Transcript {
        guard bytes.count <= maximumInputSize else {
            throw TranscriptError(file: file, line: nil, message: tooLargeMessage(size: bytes.count))
        }
        if let limits,
            let problem = limits.violation(.transcriptBytes, bytes.count, "the transcript's size in bytes")
        {
            throw TranscriptError(file: file, line: nil, message: problem)
        }
        let transcript = try parseFormat(bytes, file: file, format: format)
        if let limits,
            let problem = limits.violation(
                .transcriptEntries, transcript.lines.count, "the number of transcript lines")
        {
            throw TranscriptError(file: file, line: nil, message: problem)
        }
        return transcript
    }

    private static func parseFormat(
        _ bytes: [UInt8], file: String, format: TranscriptFormat?
    ) throws(TranscriptError) -> Transcript {
        guard let format = format ?? TranscriptFormat.detect(file: file, bytes: bytes) else {
            throw TranscriptError(
                file: file, line: nil,
                message: "cannot tell the transcript format; expected a .json, .srt or .vtt file, or a "
                    + ".txt file starting with '{', '[', \"WEBVTT\" or a SubRip cue number")
        }
        switch format {
        case .json: return try JSONTranscriptParser.parse(bytes, file: file)
        case .srt: return try SRTParser.parse(bytes, file: file)
        case .webVTT: return try WebVTTParser.parse(bytes, file: file)
        }
    }

    /// Reads and parses a transcript file; errors name the file as given.
    public static func load(file: String, format: TranscriptFormat? = nil, limits: ResourceLimits? = nil)
        throws(TranscriptError) -> Transcript
    {
        let bytes: [UInt8]
        let byteLimit = min(maximumInputSize, limits?.count(.transcriptBytes) ?? maximumInputSize)
        switch RegularFileReader.read(path: file, limit: byteLimit) {
        case .success(let read): bytes = read
        case .failure(.missing): throw TranscriptError(file: file, line: nil, message: "no such file")
        case .failure(.notRegular(let kind)):
            throw TranscriptError(file: file, line: nil, message: "is \(kind), not a transcript")
        case .failure(.tooLarge(let size)):
            let problem = limits?.violation(.transcriptBytes, size, "the transcript's size in bytes")
            throw TranscriptError(file: file, line: nil, message: problem ?? tooLargeMessage(size: size))
        case .failure(.unreadable(let reason)):
            throw TranscriptError(file: file, line: nil, message: "cannot be read (\(reason))")
        }
        return try parse(bytes, file: file, format: format, limits: limits)
    }

    private static func tooLargeMessage(size: Int) -> String {
        "expected at most \(maximumInputSize) bytes (64 MiB), got a file of \(size) bytes"
    }

    /// The problem with a line's text, if any.
    static func textProblem(_ text: String) -> String? {
        // `count` walks grapheme clusters; the UTF-8 size bounds it, so most texts skip the walk.
        guard text.utf8.count > maximumTextLength, text.count > maximumTextLength else { return nil }
        return "expected a text of at most \(maximumTextLength) characters, got \(text.count)"
    }

    /// The problem with a transcript of `count` lines, if any.
    static func countProblem(_ count: Int, noun: String) -> String? {
        guard count > maximumLineCount else { return nil }
        return "expected at most \(maximumLineCount) \(noun)s, got more"
    }
}
