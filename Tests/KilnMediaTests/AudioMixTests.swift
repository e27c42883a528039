import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// The soundtrack mix: sums, volume curves, ducking with lookahead, loops, and the loudness meter.
final class AudioMixTests: ScratchDirectoryTestCase {
    /// Fixed samples, then silence.
    final class ArraySource: AudioSampleSource {
        let left: [Float], right: [Float]
        var position = 0
        init(_ left: [Float], _ right: [Float]? = nil) { (self.left, self.right) = (left, right ?? left) }
        func fill(left l: UnsafeMutablePointer<Float>, right r: UnsafeMutablePointer<Float>, count: Int) {
            for i in 0..<count {
                let k = position + i
                l[i] = k < left.count ? left[k] : 0
                r[i] = k < right.count ? right[k] : 0
            }
            position += count
        }
    }

    /// Pulls `count` samples in uneven pieces (as an encoder's frames and a mix's blocks differ).
    func pull(_ source: any AudioSampleSource, _ count: Int) throws -> [Float] {
        var out: [Float] = [], right = [Float](repeating: 0, count: 1600), left = right
        var piece = 1
        while out.count < count {
            let n = min(piece, count - out.count)
            try left.withUnsafeMutableBufferPointer { l in
                try right.withUnsafeMutableBufferPointer { r in
                    try source.fill(left: l.baseAddress!, right: r.baseAddress!, count: n)
                }
            }
            out += left[0..<n]
            piece = piece % 1499 + 97
        }
        return out
    }

    func rmsDecibels(_ samples: ArraySlice<Float>) -> Double {
        let mean = samples.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, samples.count))
        return 10 * log10(max(mean, 1e-30))
    }

    func testOneInputComesOutUnchangedWhateverTheReadSizes() throws {
        let tone = WAVWriter.sine(frequency: 440, amplitude: 0.5, seconds: 0.5)
        let mixed = try pull(AudioMix(inputs: [.init(source: ArraySource(tone))]), tone.count + 1000)
        XCTAssertEqual(Array(mixed[0..<tone.count]), tone)
        XCTAssertEqual(Array(mixed[tone.count...]), [Float](repeating: 0, count: 1000))
    }

    func testInputsAreSummedWithTheirVolumeCurvesAndTheMasterGain() throws {
        let n = 48_000
        let a = ArraySource([Float](repeating: 0.25, count: n))
        let b = ArraySource([Float](repeating: 0.5, count: n))
        // b fades from 0 to 1 over the second, on the timeline's clock (it starts at 2 s).
        let mix = AudioMix(
            inputs: [.init(source: a), .init(source: b, volume: { t in min(1, max(0, t - 2)) })],
            timelineStart: 2, gain: 0.5)
        let out = try pull(mix, n)
        for i in stride(from: 0, to: n, by: 4_801) {
            let expected = 0.5 * (0.25 + 0.5 * Float(i) / Float(n))
            XCTAssertEqual(out[i], expected, accuracy: 1e-5, "sample \(i)")
        }
    }

    /// Music under a voice: the music (the mix minus the voice, which passes at 1) is down by
    /// the duck's 12 dB from the voice's first sample to its last, started ahead by the attack,
    /// and back up after the hold and the release.
    func testDuckingLowersTheMusicWhileTheVoiceSounds() throws {
        let seconds = 5.0
        let music = WAVWriter.sine(frequency: 220, amplitude: 0.2, seconds: seconds)
        let voice = WAVWriter.sine(
            frequency: 1000, amplitude: 0.5, seconds: seconds, on: [1.0...2.0, 3.5...3.7])
        let duck = AudioMix.Duck(key: 1, amount: 12, threshold: -40, attack: 0.08, release: 0.5, hold: 0.3)
        let mix = AudioMix(inputs: [
            .init(source: ArraySource(music), duck: duck), .init(source: ArraySource(voice)),
        ])
        let out = try pull(mix, music.count)
        let alone = zip(out, voice).map { $0 - $1 }
        func level(_ from: Double, _ to: Double) -> Double {
            let a = Int(from * 48_000), b = Int(to * 48_000)
            return rmsDecibels(alone[a..<b]) - rmsDecibels(music[a..<b])
        }
        XCTAssertEqual(level(0.1, 0.9), 0, accuracy: 0.01, "untouched before the attack")
        XCTAssertEqual(
            level(1.0, 2.0), -12, accuracy: 0.05, "down for the whole of the voice, from its start")
        XCTAssertLessThanOrEqual(level(1.0, 1.02), -11.9, "already down at the voice's first 20 ms")
        XCTAssertEqual(level(2.0, 2.3), -12, accuracy: 0.05, "held through a pause")
        XCTAssertEqual(level(2.85, 3.4), 0, accuracy: 0.01, "back up after hold and release")
        XCTAssertEqual(level(3.5, 3.7), -12, accuracy: 0.05, "down again for the second phrase")
        XCTAssertEqual(Array(zip(out, voice).map { $0 - $1 }[0..<1000]), Array(music[0..<1000]))
    }

    func testALoopedFileRepeatsItsTrimmedPartUntilTheEnd() throws {
        // Sample k holds k / 48000: any misplaced sample shows.
        let ramp = (0..<48_000).map { Float($0) / 48_000 }
        let url = directory.appendingPathComponent("ramp.wav")
        try WAVWriter.write(left: ramp, right: ramp, to: url)
        let placed = try PlacedAudioFile(
            path: url.path,
            placement: AudioPlacement(offset: 0.5, trimStart: 0.25, trimEnd: 0.5, loop: true, loopEnd: 2))
        let out = try pull(placed, 2 * 48_000 + 500)
        XCTAssertEqual(
            Array(out[0..<24_000]), [Float](repeating: 0, count: 24_000), "silence before the offset")
        for pass in 0..<6 {
            let start = 24_000 + pass * 12_000
            XCTAssertEqual(Array(out[start..<(start + 12_000)]), Array(ramp[12_000..<24_000]), "pass \(pass)")
        }
        XCTAssertEqual(
            Array(out[96_000...]), [Float](repeating: 0, count: 500), "silence after the loop's end")
    }

    func testALoopedTrackFadesOutBeforeTheVideosEnd() throws {
        let url = directory.appendingPathComponent("one.wav")
        let ones = [Float](repeating: 1, count: 4_800)
        try WAVWriter.write(left: ones, right: ones, to: url)
        let placed = try PlacedAudioFile(
            path: url.path, placement: AudioPlacement(fadeOut: 0.5, loop: true, loopEnd: 1))
        let out = try pull(placed, 48_000)
        XCTAssertEqual(out[0], 1)
        XCTAssertEqual(out[24_000 - 1], 1, accuracy: 1e-4, "full until the fade")
        XCTAssertEqual(out[36_000], 0.5, accuracy: 1e-3, "half-way down")
        XCTAssertEqual(out[47_999], 0, accuracy: 1e-3)
    }

    /// BS.1770 reads a 997 Hz sine of peak A in both channels as 20·log10(A) LUFS.
    func testTheMeterReadsASineAtItsDefinedLoudness() throws {
        let tone = WAVWriter.sine(frequency: 997, amplitude: 0.1, seconds: 3)
        let measured = try LoudnessMeter.measure(ArraySource(tone), count: tone.count)
        XCTAssertEqual(measured.loudness, -20, accuracy: 0.1)
        XCTAssertEqual(measured.truePeak, -20, accuracy: 0.2)
        let silence = try LoudnessMeter.measure(ArraySource([]), count: 48_000)
        XCTAssertEqual(silence.loudness, -.infinity)
    }

    func testTheGainMeetsTheTarget() {
        XCTAssertEqual(LoudnessGain(loudness: -23, target: -16).decibels, 7, accuracy: 1e-9)
        XCTAssertEqual(LoudnessGain(loudness: -.infinity, target: -16).decibels, 0)
        XCTAssertEqual(LoudnessGain(loudness: -10, target: -16).linear, 0.5012, accuracy: 1e-3)
    }

    /// Peaks over the ceiling come out at it, the gain ramping down over the look-ahead before
    /// them (not after) and back up; quiet samples before and after pass untouched; nothing is
    /// delayed.
    func testTheLimiterHoldsPeaksAtTheCeilingWithoutDelay() throws {
        var signal = WAVWriter.sine(frequency: 500, amplitude: 0.3, seconds: 1)
        for i in 24_000..<24_480 { signal[i] *= 3 }  // a 10 ms burst at 0.9
        let limiter = PeakLimiter(source: ArraySource(signal), ceiling: 0.5)
        let out = try pull(limiter, signal.count)
        XCTAssertLessThanOrEqual(out.map(abs).max()!, 0.5 + 1e-6)
        XCTAssertTrue(out[0..<20_000].elementsEqual(signal[0..<20_000]), "untouched, not delayed")
        XCTAssertTrue(out[40_000...].elementsEqual(signal[40_000...]), "released afterwards")
        XCTAssertLessThan(limiter.deepestGain, 0.6)
        XCTAssertGreaterThan(limiter.deepestGain, 0.5)
        // Down before the burst: the 5 ms look-ahead.
        XCTAssertLessThan(abs(out[23_990]), abs(signal[23_990]) * 0.95 + 1e-6)
    }
}
