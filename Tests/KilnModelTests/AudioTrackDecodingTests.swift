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
        let soundtrack = try XCTUnwrap(try decode(#"{"path": "voice.wav"}"#).audio)
        XCTAssertNil(soundtrack.loudness)
        let plain = try XCTUnwrap(soundtrack.tracks.first)
        XCTAssertEqual(soundtrack.tracks.count, 1)
        XCTAssertEqual(plain.path.path, voice)
        XCTAssertEqual(
            [plain.offset, plain.trimStart, plain.volume.value(at: 0), plain.fadeIn, plain.fadeOut],
            [0, 0, 1, 0, 0])
        XCTAssertNil(plain.trimEnd)
        XCTAssertNil(plain.name)
        XCTAssertNil(plain.duck)
        XCTAssertFalse(plain.loop)
        let placed = try XCTUnwrap(
            try decode(
                #"{"path": "voice.wav", "offset": 1.5, "trimStart": 2, "trimEnd": 7, "volume": 0.5, "fadeIn": 0.25, "fadeOut": 1, "loop": true}"#,
                probe: FixedProbe(duration: 10)
            ).audio?.tracks.first)
        XCTAssertEqual(
            [
                placed.offset, placed.trimStart, placed.trimEnd, placed.volume.value(at: 3), placed.fadeIn,
                placed.fadeOut,
            ],
            [1.5, 2, 7, 0.5, 0.25, 1])
        XCTAssertTrue(placed.loop)
    }

    func testAListOfTracksAndTheMixObject() throws {
        try Data("RIFF".utf8).write(to: directory.appendingPathComponent("music.wav"))
        let list = try XCTUnwrap(
            try decode(
                #"[{"path": "voice.wav", "name": "voice"}, {"path": "music.wav", "volume": {"keyframes": [{"t": 0, "v": 0}, {"t": 2, "v": 0.5}]}, "duck": {"under": "voice", "amount": 15}}]"#
            ).audio)
        XCTAssertEqual(list.tracks.map(\.path.lastPathComponent), ["voice.wav", "music.wav"])
        XCTAssertEqual(
            list.tracks[1].volume.value(at: 1), 0.25, accuracy: 1e-9, "animated on the timeline's clock")
        XCTAssertEqual(list.tracks[1].duck, Ducking(under: "voice", amount: 15))
        XCTAssertNil(list.loudness)
        let mix = try XCTUnwrap(
            try decode(#"{"tracks": [{"path": "voice.wav"}], "loudness": -16, "truePeak": -2}"#).audio)
        XCTAssertEqual(mix.loudness, LoudnessTarget(integrated: -16, truePeak: -2))
        XCTAssertEqual(
            try XCTUnwrap(try decode(#"{"tracks": [{"path": "voice.wav"}], "loudness": -23}"#).audio)
                .loudness,
            LoudnessTarget(integrated: -23, truePeak: -1))
    }

    func testMixProblemsNameTheirTrack() {
        XCTAssertEqual(
            errors(#"[{"path": "voice.wav", "duck": {"under": "voice"}}]"#),
            [#"audio[0].duck.under: no track is named 'voice' (give the voice track a "name")"#])
        XCTAssertEqual(
            errors(#"[{"path": "voice.wav", "name": "a", "duck": {"under": "a"}}]"#),
            ["audio[0].duck.under: a track cannot duck under itself"])
        XCTAssertEqual(
            errors(#"[{"path": "voice.wav", "name": "a"}, {"path": "voice.wav", "name": "a"}]"#),
            ["audio[1].name: the name 'a' is already track 0's; names must be unique"])
        XCTAssertEqual(errors(#"[]"#), ["audio: expected 1 to 32 tracks, found 0"])
        let loud = errors(#"{"tracks": [{"path": "voice.wav"}], "loudness": 3}"#)
        XCTAssertTrue(loud.contains { $0.hasPrefix("audio.loudness:") }, "\(loud)")
        let nested = errors(#"{"tracks": [{"path": "voice.wav", "duck": {"amount": 6}}]}"#)
        XCTAssertEqual(nested, ["audio.tracks[0].duck: missing required key 'under'"])
        XCTAssertEqual(
            errors(#"[{"path": "nowhere.wav"}, {"path": "voice.wav", "fadeIn": -1}]"#).count, 2,
            "every track's problems are reported")
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
        XCTAssertEqual(
            errors(#""voice.wav""#),
            [
                #"audio: expected an object (one track, or {"tracks": […]}) or an array of tracks, got a string"#
            ])
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
