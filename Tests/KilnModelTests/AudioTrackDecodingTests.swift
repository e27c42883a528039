import Foundation
import KilnModel
import KilnTestSupport
import XCTest

/// The job's `audio` object: defaults, ranges, trim order, the probe service's verdicts.
final class AudioTrackDecodingTests: ScratchDirectoryTestCase {
    private var voice: String { directory.appendingPathComponent("voice.wav").path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Data("RIFF".utf8).write(to: URL(fileURLWithPath: voice))
    }

    /// Answers with a fixed duration, or fails as an unreadable file would.
    struct FixedProbe: AudioProbing {
        let duration: Double?
        struct Unreadable: Error, CustomStringConvertible { var description: String { "no audio stream" } }
        func audioDuration(at url: URL) throws -> Double {
            guard let duration else { throw Unreadable() }
            return duration
        }
    }

    private func decode(_ audio: String, probe: FixedProbe? = nil) throws(JobLoadError) -> Job {
        var services = DecodeServices()
        if let probe { services.register(probe, as: (any AudioProbing).self) }
        let json = """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 2}, "layers": [],
             "audio": \(audio)}
            """
        return try JobLoader.decode(
            bytes: Array(json.utf8), file: "job.json", baseDirectory: directory, kinds: testKinds,
            services: services)
    }

    private func errors(_ audio: String, probe: FixedProbe? = nil) -> [String] {
        do {
            _ = try decode(audio, probe: probe)
            XCTFail("expected errors")
            return []
        } catch {
            guard case .invalid(let diagnostics) = error else { return ["\(error)"] }
            return diagnostics.map { "\($0.path): \($0.message)" }
        }
    }

    func testDefaultsAndExplicitValues() throws {
        let plain = try XCTUnwrap(try decode(#"{"path": "voice.wav"}"#).audio)
        XCTAssertEqual(plain.path.path, voice)
        XCTAssertEqual(
            [plain.offset, plain.trimStart, plain.volume, plain.fadeIn, plain.fadeOut], [0, 0, 1, 0, 0])
        XCTAssertNil(plain.trimEnd)
        let placed = try XCTUnwrap(
            try decode(
                #"{"path": "voice.wav", "offset": 1.5, "trimStart": 2, "trimEnd": 7, "volume": 0.5, "fadeIn": 0.25, "fadeOut": 1}"#,
                probe: FixedProbe(duration: 10)
            ).audio)
        XCTAssertEqual(
            placed,
            AudioTrack(
                path: URL(fileURLWithPath: voice), offset: 1.5, trimStart: 2, trimEnd: 7, volume: 0.5,
                fadeIn: 0.25,
                fadeOut: 1))
    }

    func testNoAudioKeyMeansNoTrack() throws {
        let json =
            #"{"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 2}, "layers": []}"#
        let job = try JobLoader.decode(
            bytes: Array(json.utf8), file: "job.json", baseDirectory: directory, kinds: testKinds)
        XCTAssertNil(job.audio)
    }

    func testBadValuesAreReportedWithTheirPaths() {
        let found = errors(#"{"path": "voice.wav", "volume": 20, "offset": -1, "volumn": 1}"#)
        XCTAssertTrue(found.contains { $0.hasPrefix("audio.volume:") }, "\(found)")
        XCTAssertTrue(found.contains { $0.hasPrefix("audio.offset:") }, "\(found)")
        XCTAssertTrue(
            found.contains { $0.contains("'volumn'") && $0.contains("did you mean 'volume'") }, "\(found)")
        XCTAssertEqual(errors(#"{"offset": 1}"#).first, "audio: missing required key 'path'")
        XCTAssertEqual(
            errors(#"{"path": "voice.wav", "trimStart": 3, "trimEnd": 3}"#),
            ["audio.trimEnd: trimEnd (3 s) must be after trimStart (3 s)"])
        XCTAssertEqual(errors(#""voice.wav""#), ["audio: expected an object, got a string"])
    }

    func testMissingFileIsAMissingInput() {
        do {
            _ = try decode(#"{"path": "nowhere.wav"}"#)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.exitCode, 66)
            XCTAssertTrue("\(error)".contains("nowhere.wav"), "\(error)")
        }
    }

    func testTheProbeRejectsUnreadableAudioAndATrimPastTheEnd() {
        XCTAssertEqual(
            errors(#"{"path": "voice.wav"}"#, probe: FixedProbe(duration: nil)),
            ["audio.path: cannot read audio from 'voice.wav': no audio stream"])
        XCTAssertEqual(
            errors(#"{"path": "voice.wav", "trimStart": 12}"#, probe: FixedProbe(duration: 10)),
            ["audio.trimStart: trimStart (12 s) is at or past the end of the audio (10 s)"])
        XCTAssertNoThrow(
            try decode(#"{"path": "voice.wav", "trimStart": 9}"#, probe: FixedProbe(duration: 10)))
    }
}
