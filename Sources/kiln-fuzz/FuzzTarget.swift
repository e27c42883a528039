import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnQueue
import KilnSymbols

/// The parsers that read what other people write: each takes arbitrary bytes and must answer with
/// a value or an error, never trap, hang or exhaust memory. `scripts/fuzz.sh` runs each under
/// libFuzzer; the replay mode of a normal build feeds it files.
enum FuzzTarget: String, CaseIterable, Sendable {
    case job
    case transcriptJSON = "transcript-json"
    case transcriptSRT = "transcript-srt"
    case transcriptVTT = "transcript-vtt"
    case cron
    case imageHeader = "image-header"
    case audioHeader = "audio-header"
    /// A symbol SVG (XML, path data, transforms, styles), as a job's own `file` is read.
    case symbol

    func run(_ bytes: [UInt8]) {
        switch self {
        case .job: Self.decodeJob(bytes)
        case .transcriptJSON: _ = try? TranscriptParser.parse(bytes, file: "fuzz.json", format: .json)
        case .transcriptSRT: _ = try? TranscriptParser.parse(bytes, file: "fuzz.srt", format: .srt)
        case .transcriptVTT: _ = try? TranscriptParser.parse(bytes, file: "fuzz.vtt", format: .webVTT)
        case .cron: Self.evaluateCron(bytes)
        case .imageHeader: _ = try? ImageFile.probe(FuzzScratch.shared.write(bytes))
        case .audioHeader: _ = try? MediaAudioProbe().audioDuration(at: FuzzScratch.shared.write(bytes))
        case .symbol: _ = try? SymbolCatalog.parse(bytes, file: "fuzz.svg")
        }
    }

    /// What `kiln validate` and `enqueue` do with a job's bytes, with the repository's `jobs/`
    /// folder as the job's directory so that the seed jobs' images, audio and transcripts resolve.
    private static func decodeJob(_ bytes: [UInt8]) {
        let directory = ProcessInfo.processInfo.environment["KILN_FUZZ_JOB_DIRECTORY"] ?? "jobs"
        _ = try? JobFiles.decode(
            bytes: bytes, file: "fuzz.json",
            baseDirectory: URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL)
    }

    /// The first line is the expression, as `kiln schedule add --cron` takes it; a second line, if
    /// any, names its time zone. Expressions that parse are also evaluated, which walks the calendar.
    private static func evaluateCron(_ bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(
            separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let zone = lines.count > 1 ? TimeZone(identifier: String(lines[1])) : nil
        guard
            let expression = try? CronExpression(
                String(lines.first ?? ""), timeZone: zone ?? TimeZone(identifier: "UTC")!)
        else { return }
        // 2026-03-29 00:30 UTC: Europe's spring-forward day, so zones with DST cross a gap.
        _ = expression.fires(after: 1_774_744_200, count: 3)
    }
}

/// One file per fuzzing process that the media probes read: they take paths, not bytes.
final class FuzzScratch: Sendable {
    static let shared = FuzzScratch()
    let file: URL

    private init() {
        file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kiln-fuzz-\(ProcessInfo.processInfo.processIdentifier).input")
        atexit { try? FileManager.default.removeItem(at: FuzzScratch.shared.file) }
    }

    func write(_ bytes: [UInt8]) -> URL {
        // A failed write leaves the previous input, which only repeats a case already run.
        try? Data(bytes).write(to: file)
        return file
    }
}
