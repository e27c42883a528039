import Foundation
import KilnMedia
import KilnModel

/// Builds the sample source of a job's soundtrack: every track placed on the timeline (from the
/// video's first frame), mixed, and when the job asks for a loudness, brought to it by one gain
/// measured on a first pass over the same mix.
enum SoundtrackMix {
    static func source(_ soundtrack: Soundtrack, output: OutputSettings) throws(MediaError)
        -> any AudioSampleSource
    {
        let start = output.timelineTime(ofFrame: 0)
        guard let target = soundtrack.loudness else {
            return try mix(soundtrack, output: output, from: start)
        }
        let samples = Int((output.durationSeconds * Double(AudioFormat.sampleRate)).rounded(.up))
        let measured = try LoudnessMeter.measure(mix(soundtrack, output: output, from: start), count: samples)
        var gain = LoudnessGain(loudness: measured.loudness, target: target.integrated)
        // The limiter keeps sample peaks half a dB under the true-peak ceiling: what lies between
        // samples, and the encoder's ringing, take the rest.
        let ceiling = Float(pow(10, (target.truePeak - 0.5) / 20))
        guard measured.truePeak.isFinite, measured.truePeak + gain.decibels > target.truePeak - 0.5 else {
            return try mix(soundtrack, output: output, from: start, gain: gain.linear)
        }
        // Limiting takes a little loudness off the peaks: measured once more through the limiter,
        // the gain makes that up.
        let limited = try LoudnessMeter.measure(
            PeakLimiter(
                source: mix(soundtrack, output: output, from: start, gain: gain.linear), ceiling: ceiling),
            count: samples)
        gain = LoudnessGain(decibels: gain.decibels + (target.integrated - limited.loudness))
        return PeakLimiter(
            source: try mix(soundtrack, output: output, from: start, gain: gain.linear), ceiling: ceiling)
    }

    /// The measurement `source` normalises with, for reports and tests.
    static func measure(_ soundtrack: Soundtrack, output: OutputSettings) throws(MediaError) -> (
        loudness: Double, truePeak: Double
    ) {
        let samples = Int((output.durationSeconds * Double(AudioFormat.sampleRate)).rounded(.up))
        return try LoudnessMeter.measure(
            mix(soundtrack, output: output, from: output.timelineTime(ofFrame: 0)), count: samples)
    }

    private static func mix(
        _ soundtrack: Soundtrack, output: OutputSettings, from start: Double, gain: Float = 1
    ) throws(MediaError) -> AudioMix {
        try mix(soundtrack, from: start, to: output.timelineTime(ofFrame: output.frameCount), gain: gain)
    }

    /// The tracks placed from timeline second `start` (a looped track stops at `end`) and mixed.
    static func mix(_ soundtrack: Soundtrack, from start: Double, to end: Double, gain: Float = 1)
        throws(MediaError) -> AudioMix
    {
        var inputs: [AudioMix.Input] = []
        for track in soundtrack.tracks {
            // A constant volume is applied as the file is placed, as a single track always was.
            var constantVolume = 1.0
            var volume: (@Sendable (Double) -> Double)?
            if case .constant(let value) = track.volume {
                constantVolume = value
            } else {
                let curve = track.volume
                volume = { curve.value(at: $0) }
            }
            let file = try PlacedAudioFile(
                path: track.path.path,
                placement: AudioPlacement(
                    offset: track.offset, trimStart: track.trimStart, trimEnd: track.trimEnd,
                    volume: constantVolume, fadeIn: track.fadeIn, fadeOut: track.fadeOut, loop: track.loop,
                    loopEnd: end, speed: track.speed),
                from: start)
            let duck = track.duck.flatMap { duck in
                soundtrack.tracks.firstIndex { $0.name == duck.under }.map {
                    AudioMix.Duck(
                        key: $0, amount: duck.amount, threshold: duck.threshold, attack: duck.attack,
                        release: duck.release, hold: duck.hold)
                }
            }
            inputs.append(AudioMix.Input(source: file, volume: volume, duck: duck))
        }
        return AudioMix(inputs: inputs, timelineStart: start, gain: gain)
    }
}
