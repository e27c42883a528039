import Foundation

/// Writes stereo 32-bit float WAV files: test fixtures with exactly known samples.
public enum WAVWriter {
    public static func write(left: [Float], right: [Float], rate: Int = 48_000, to url: URL) throws {
        precondition(left.count == right.count, "channels of different lengths")
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        let payload = left.count * 8
        data.append(contentsOf: Array("RIFF".utf8))
        append(UInt32(36 + payload))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(3))  // IEEE float
        append(UInt16(2))
        append(UInt32(rate))
        append(UInt32(rate * 8))
        append(UInt16(8))
        append(UInt16(32))
        data.append(contentsOf: Array("data".utf8))
        append(UInt32(payload))
        for i in left.indices {
            append(left[i].bitPattern)
            append(right[i].bitPattern)
        }
        try data.write(to: url)
    }

    /// A sine of `frequency` Hz and peak `amplitude` in both channels, `seconds` long, silent
    /// outside `on` (seconds) when given.
    public static func sine(
        frequency: Double, amplitude: Float, seconds: Double, rate: Int = 48_000,
        on: [ClosedRange<Double>]? = nil
    ) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { i in
            let t = Double(i) / Double(rate)
            if let on, !on.contains(where: { $0.contains(t) }) { return 0 }
            return amplitude * Float(sin(2 * Double.pi * frequency * t))
        }
    }
}
