import Foundation
import XCTest

/// Signal measurements for decoded audio.
enum AudioMeasure {
    static func rms(_ samples: ArraySlice<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// Power of one frequency (Goertzel), normalised by length.
    static func power(_ samples: ArraySlice<Float>, frequency: Double, rate: Double) -> Double {
        let coefficient = 2 * cos(2 * .pi * frequency / rate)
        var s1 = 0.0, s2 = 0.0
        for x in samples {
            let s = Double(x) + coefficient * s1 - s2
            s2 = s1
            s1 = s
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return power / Double(samples.count * samples.count)
    }

    /// The strongest frequency in `candidates` and its power against the next strongest.
    static func dominantFrequency(_ samples: ArraySlice<Float>, rate: Double, candidates: [Double])
        -> (frequency: Double, ratio: Double)
    {
        let powers = candidates.map { power(samples, frequency: $0, rate: rate) }
        let sorted = zip(candidates, powers).sorted { $0.1 > $1.1 }
        return (sorted[0].0, sorted[0].1 / max(sorted[1].1, 1e-30))
    }

    /// Seconds at which the short-time RMS (5 ms windows) first reaches `level`.
    static func onset(_ samples: [Float], rate: Double, level: Double) -> Double? {
        let window = Int(rate * 0.005)
        var start = 0
        while start + window <= samples.count {
            if rms(samples[start..<(start + window)]) >= level { return Double(start) / rate }
            start += window / 5
        }
        return nil
    }
}
