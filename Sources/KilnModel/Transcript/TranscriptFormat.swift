import Foundation

/// The transcript file formats Kiln reads.
public enum TranscriptFormat: String, Sendable, Hashable, CaseIterable {
    /// `{"segments": [{"start": seconds, "text": "…"}]}` or a bare array of segments.
    case json
    /// SubRip: numbered cues with `HH:MM:SS,mmm --> HH:MM:SS,mmm` timing lines.
    case srt
    /// WebVTT: a `WEBVTT` header, then cues with `[HH:]MM:SS.mmm --> [HH:]MM:SS.mmm` timing lines.
    case webVTT = "vtt"

    /// The format named by the file's extension, else, for a `.txt` file (the transcripts in
    /// `shared/seeds` are `.txt`), the one its first line looks like. The extension wins so that a
    /// damaged `.srt` file gets SubRip errors rather than a guess; any other name is refused, so
    /// that a configuration file that happens to look like SubRip is not drawn into a video.
    public static func detect(file: String, bytes: [UInt8]) -> TranscriptFormat? {
        if let format = fromExtension(of: file) { return format }
        guard URL(fileURLWithPath: file).pathExtension.lowercased() == "txt" else { return nil }
        return fromContent(bytes)
    }

    static func fromExtension(of file: String) -> TranscriptFormat? {
        guard let dot = file.lastIndex(of: "."), !file[dot...].contains("/") else { return nil }
        return TranscriptFormat(rawValue: file[file.index(after: dot)...].lowercased())
    }

    static func fromContent(_ bytes: [UInt8]) -> TranscriptFormat? {
        var reader = TranscriptTextReader(bytes: bytes, file: "")
        guard let first = try? reader.nextNonBlank() else { return nil }
        let trimmed = CueText.trimmed(first)
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return .json }
        if WebVTTParser.isSignature(first) { return .webVTT }
        if SRTParser.cueNumber(first) != nil || first.contains("-->") { return .srt }
        return nil
    }
}
