import Foundation

/// Levels of decoded audio for tests.
public enum AudioLevels {
    /// The power of one frequency in `samples` (Goertzel, Hann-windowed), in dB relative to a
    /// full-scale sine of that frequency: a tone of peak A reads 20·log10(A).
    public static func decibels(
        ofFrequency frequency: Double, in samples: ArraySlice<Float>, rate: Double = 48_000
    )
        -> Double
    {
        let n = samples.count
        let w = 2 * Double.pi * frequency / rate
        let coefficient = 2 * cos(w)
        var (s1, s2) = (0.0, 0.0)
        var windowSum = 0.0
        for (i, sample) in samples.enumerated() {
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(max(1, n - 1)))
            windowSum += window
            let s = Double(sample) * window + coefficient * s1 - s2
            (s2, s1) = (s1, s)
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        let amplitude = 2 * power.squareRoot() / max(windowSum, 1e-12)
        return 20 * log10(max(amplitude, 1e-12))
    }
}
