import Foundation
import KilnModel
import XCTest

/// The fuzzer's seeds must stay valid: a seed that no longer parses only exercises the first error
/// path, and fuzzing from it reaches little.
final class FuzzCorpusTests: XCTestCase {
    static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    func testTranscriptSeedsParseInTheirFormat() throws {
        let formats: [(String, TranscriptFormat)] = [
            ("transcript-json", .json), ("transcript-srt", .srt), ("transcript-vtt", .webVTT),
        ]
        for (target, format) in formats {
            let seeds = try Self.files(in: "Corpus/\(target)")
            XCTAssertFalse(seeds.isEmpty, target)
            for seed in seeds {
                let transcript = try TranscriptParser.parse(
                    Array(try Data(contentsOf: seed)), file: seed.path, format: format)
                XCTAssertFalse(transcript.isEmpty, seed.lastPathComponent)
            }
        }
    }

    func testJobSeedsAreJSONObjectsOfTheCurrentFormat() throws {
        let seeds = try Self.files(in: "Corpus/job")
        XCTAssertFalse(seeds.isEmpty)
        for seed in seeds {
            let root = try JSONParser.parse(Array(try Data(contentsOf: seed)))
            guard case .object(let members) = root.value else {
                return XCTFail("\(seed.lastPathComponent) is not an object")
            }
            guard case .number(let version)? = members.first(where: { $0.key == "kiln" })?.value.value else {
                return XCTFail("\(seed.lastPathComponent) has no format version")
            }
            XCTAssertEqual(version, Double(Job.formatVersion), seed.lastPathComponent)
        }
    }

    static func files(in folder: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(
            at: fuzzFolder.appendingPathComponent(folder), includingPropertiesForKeys: nil
        )
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
