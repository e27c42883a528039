import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnScene
import KilnTestSupport
import XCTest

/// Values and layers driven by the soundtrack: the analysis, the mapping, the smoothing, the
/// errors, and the audiogram's bars, loaded as the CLI loads jobs.
final class AudioReactiveTests: ScratchDirectoryTestCase {
    /// A 1 kHz sine of peak 0.5 (RMS −9.03 dBFS) from 1 s to 2 s of a 3 s file.
    func writeTone() throws {
        let tone = WAVWriter.sine(frequency: 1000, amplitude: 0.5, seconds: 3, on: [1.0...2.0])
        try WAVWriter.write(left: tone, right: tone, to: directory.appendingPathComponent("tone.wav"))
    }

    func load(audio: String = #"[{"path": "tone.wav", "name": "tone"}]"#, layers: String) throws(JobLoadError)
        -> Job
    {
        let json = """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 25, "duration": 3}, "audio": \(audio),
             "layers": \(layers)}
            """
        return try JobFiles.decode(bytes: Array(json.utf8), file: "job.json", baseDirectory: directory)
    }

    func errors(audio: String = #"[{"path": "tone.wav", "name": "tone"}]"#, layers: String) -> [String] {
        do {
            _ = try load(audio: audio, layers: layers)
            XCTFail("expected errors")
            return []
        } catch {
            guard case .invalid(let diagnostics) = error else { return ["\(error)"] }
            return diagnostics.map { "\($0.path): \($0.message)" }
        }
    }

    func testTheAnalysisReadsASineInItsBandAndNotOutside() throws {
        let tone = WAVWriter.sine(frequency: 1000, amplitude: 0.5, seconds: 1)
        let source = AudioMixTestsSource(tone)
        let levels = try AudioAnalysis(bands: [nil, 900...1100, 100...500]).levels(
            of: source, hops: 60, hop: 480)
        let expected = 20 * log10(0.5 / 2.0.squareRoot())
        for hop in 10..<40 {
            XCTAssertEqual(Double(levels[0][hop]), expected, accuracy: 0.05, "whole signal, hop \(hop)")
            XCTAssertEqual(Double(levels[1][hop]), expected, accuracy: 0.5, "its band, hop \(hop)")
            XCTAssertLessThan(Double(levels[2][hop]), expected - 50, "another band, hop \(hop)")
        }
    }

    /// `rotation` follows the tone's level: 0 in silence, floor…0 dBFS mapped onto the range,
    /// smoothed from the timeline's start.
    func testANumberFollowsTheLevelOfItsTrack() throws {
        try writeTone()
        let job = try load(
            layers: """
                [{"type": "solid", "color": "#fff",
                  "rotation": {"audio": "level", "track": "tone", "range": [0, 90], "smoothing": 0}},
                 {"type": "solid", "color": "#fff",
                  "rotation": {"audio": "level", "range": [10, 20], "smoothing": 0.2}}]
                """)
        let sharp = job.layers[0].transform.rotation, smooth = job.layers[1].transform.rotation
        let unit = (20 * log10(0.5 / 2.0.squareRoot()) + 60) / 60
        XCTAssertEqual(sharp.value(at: 0.5), 0, accuracy: 1e-6, "silence")
        XCTAssertEqual(sharp.value(at: 1.5), 90 * unit, accuracy: 0.1, "the tone's level")
        XCTAssertEqual(sharp.value(at: 2.5), 0, accuracy: 1e-6)
        XCTAssertEqual(smooth.value(at: 0.5), 10, accuracy: 1e-6)
        // One time constant (0.2 s) after the tone starts: 1 − 1/e of the way (the 43 ms window
        // centred on each time hears the tone ≈ 21 ms early, ≈ 0.4 more here).
        XCTAssertEqual(smooth.value(at: 1.2), 10 + 10 * unit * (1 - exp(-1)), accuracy: 0.5)
        XCTAssertEqual(smooth.value(at: 1.9), 10 + 10 * unit, accuracy: 0.1)
    }

    func testAnEffectsShorthandCanFollowTheSoundtrack() throws {
        try writeTone()
        let job = try load(
            layers:
                ##"[{"type": "solid", "color": "#fff", "effects": [{"blur": {"audio": "level", "range": [0, 8]}}]}]"##
        )
        XCTAssertEqual(job.layers[0].effects.count, 1)
    }

    func testSoundtrackProblemsAreReportedWithTheirPaths() throws {
        try writeTone()
        let solid = ##"[{"type": "solid", "color": "#fff", "rotation": "##
        XCTAssertEqual(
            errors(layers: solid + #"{"audio": "level", "track": "voice"}}]"#),
            ["layers[0].rotation.track: no audio track is named 'voice'; the names are 'tone'"])
        XCTAssertEqual(
            errors(
                layers:
                    ##"[{"type": "solid", "color": "#fff", "opacity": {"audio": "level", "range": [0, 2]}}]"##
            ),
            ["layers[0].opacity.range[1]: 2 is out of range 0…1"])
        XCTAssertEqual(
            errors(layers: solid + #"{"audio": "band", "band": [500, 100]}}]"#),
            ["layers[0].rotation.band: band[0] must be below band[1] (Hz)"])
        XCTAssertEqual(
            errors(layers: solid + #"{"audio": "loudness"}}]"#).first?.hasPrefix("layers[0].rotation.audio:"),
            true)
        // Every distinct band decodes the track again: a job may ask for 64 of them, not more.
        let many = (0..<65).map { i in
            ##"{"type": "solid", "color": "#fff", "rotation": {"audio": "band", "band": [\##(100 + i), 5000]}}"##
        }
        XCTAssertEqual(
            errors(layers: "[" + many.joined(separator: ", ") + "]"),
            [
                "layers[64].rotation: more than 64 different soundtrack readings (track and band pairs); "
                    + "share bands between values"
            ])
        let json = """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 25, "duration": 3},
             "layers": [{"type": "audiogram", "size": [60, 20]}]}
            """
        XCTAssertThrowsError(
            try JobFiles.decode(bytes: Array(json.utf8), file: "job.json", baseDirectory: directory)
        ) {
            XCTAssertTrue("\($0)".contains("the job has no \"audio\""), "\($0)")
        }
    }

    /// The audiogram's bars: flat dots in silence; for the 1 kHz tone the spectrum bar holding
    /// 1 kHz is the tallest and those far from it stay low; the wave's newest bars rise first.
    func testAudiogramBarsFollowTheSound() throws {
        try writeTone()
        let job = try load(
            layers: """
                [{"type": "audiogram", "size": [160, 100], "bars": 16, "frequencies": [100, 10000], "tilt": 0,
                  "smoothing": 0},
                 {"type": "audiogram", "style": "wave", "size": [160, 100], "bars": 10, "history": 1,
                  "smoothing": 0}]
                """)
        let spectrum = try XCTUnwrap(job.layers[0].content as? AudiogramLayer)
        let wave = try XCTUnwrap(job.layers[1].content as? AudiogramLayer)
        XCTAssertEqual(spectrum.heights(at: 0.5), [Double](repeating: 0, count: 16))
        let loud = spectrum.heights(at: 1.5)
        // Bands are log-spaced: 1 kHz lies in band ⌊16 · log(10) / log(100)⌋ = 8.
        XCTAssertEqual(loud.firstIndex(of: loud.max()!), 8, "\(loud)")
        XCTAssertGreaterThan(loud[8], 0.7)
        XCTAssertLessThan(loud[0], 0.05)
        XCTAssertLessThan(loud[15], 0.05)
        let rising = wave.heights(at: 1.3)
        XCTAssertGreaterThan(rising.last!, 0.7, "the newest bar hears the tone")
        XCTAssertEqual(rising.first!, 0, accuracy: 1e-6, "the oldest bar is a second ago: silence")
    }
}

/// Fixed samples, then silence.
final class AudioMixTestsSource: AudioSampleSource {
    let samples: [Float]
    var position = 0
    init(_ samples: [Float]) { self.samples = samples }
    func fill(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            let k = position + i
            left[i] = k < samples.count ? samples[k] : 0
            right[i] = left[i]
        }
        position += count
    }
}
