import Foundation
import XCTest

/// 16-bit PCM WAV files written by the tests themselves (an independent writer: a few header
/// fields and little-endian samples), so audio tests need no fixtures.
enum TestWAV {
    /// `signal(t)` in −1…1 for each channel, at `rate` Hz, for `seconds`.
    static func write(
        to path: String, rate: Int, channels: Int, seconds: Double, signal: (Double, Int) -> Double
    ) throws {
        let frames = Int((seconds * Double(rate)).rounded())
        var data = Data()
        func le<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        data.append(contentsOf: Array("RIFF".utf8))
        le(UInt32(36 + frames * channels * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        le(UInt32(16))
        le(UInt16(1))
        le(UInt16(channels))
        le(UInt32(rate))
        le(UInt32(rate * channels * 2))
        le(UInt16(channels * 2))
        le(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        le(UInt32(frames * channels * 2))
        for i in 0..<frames {
            for c in 0..<channels {
                let value = max(-1, min(1, signal(Double(i) / Double(rate), c)))
                le(Int16((value * 32767).rounded()))
            }
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    static func tone(_ frequency: Double, amplitude: Double = 0.5, from start: Double = 0)
        -> (Double, Int) -> Double
    {
        { t, _ in t < start ? 0 : amplitude * sin(2 * .pi * frequency * (t - start)) }
    }
}
