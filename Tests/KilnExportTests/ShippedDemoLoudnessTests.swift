import Foundation
import KilnMedia
import KilnModel
import KilnTestSupport
import XCTest

@testable import KilnExport

/// The shipped demos sound alike: every job under jobs/ with a soundtrack is normalised to the
/// same −16 LUFS (web and podcast platforms' level), so played one after another none is
/// quieter. The podcast's voice alone measured −21.1 LUFS against the audiogram's −16.0.
final class ShippedDemoLoudnessTests: XCTestCase {
    static let target = -16.0

    /// The shipped jobs with a top-level `audio`.
    func jobsWithSound() throws -> [URL] {
        let jobs = ShippedJobs.repositoryRoot(testFile: #filePath).appendingPathComponent("jobs")
        return try FileManager.default.contentsOfDirectory(at: jobs, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .filter { url in
                let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
                return object?["audio"] != nil
            }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Each one's whole soundtrack, as its render mixes and normalises it, measured (EBU R128
    /// integrated loudness and true peak, libebur128).
    func testEveryShippedDemoWithSoundIsAtMinus16LUFS() throws {
        let files = try jobsWithSound()
        XCTAssertTrue(
            Set(files.map(\.lastPathComponent)).isSuperset(of: ["podcast.json", "audiogram.json"]),
            "\(files.map(\.lastPathComponent))")
        for url in files {
            let name = url.lastPathComponent
            let job = try JobFiles.load(file: url.path)
            let soundtrack = try XCTUnwrap(job.audio, name)
            XCTAssertEqual(soundtrack.loudness?.integrated, Self.target, "\(name) asks for -16 LUFS")
            let source = try SoundtrackMix.source(soundtrack, output: job.output)
            let samples = Int((job.output.durationSeconds * Double(AudioFormat.sampleRate)).rounded(.up))
            let measured = try LoudnessMeter.measure(source, count: samples)
            XCTAssertEqual(measured.loudness, Self.target, accuracy: 0.5, "\(name): integrated loudness")
            XCTAssertLessThanOrEqual(measured.truePeak, -0.5, "\(name): true peak, dBTP")
        }
    }
}
