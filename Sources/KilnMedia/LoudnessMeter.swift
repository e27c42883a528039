import CEBUR128
import Foundation

/// EBU R128 (ITU-R BS.1770) loudness of a stereo stream in `AudioFormat`, measured by
/// libebur128: integrated loudness (gated, LUFS) and true peak (4× oversampled, dBTP).
public final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?
    private var interleaved: [Float] = []

    public init() throws(MediaError) {
        let mode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)
        guard let state = ebur128_init(UInt32(AudioFormat.channels), UInt(AudioFormat.sampleRate), mode)
        else {
            throw MediaError.failure("ebur128_init", "could not make a loudness meter")
        }
        self.state = state
    }

    deinit { ebur128_destroy(&state) }

    public func add(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) throws(MediaError) {
        guard count > 0 else { return }
        if interleaved.count < 2 * count { interleaved = [Float](repeating: 0, count: 2 * count) }
        let status = interleaved.withUnsafeMutableBufferPointer { buffer in
            for i in 0..<count {
                buffer[2 * i] = left[i]
                buffer[2 * i + 1] = right[i]
            }
            return ebur128_add_frames_float(state, buffer.baseAddress, count)
        }
        guard status == Int32(EBUR128_SUCCESS.rawValue) else {
            throw MediaError(
                function: "ebur128_add_frames_float", code: status, message: "loudness meter failed")
        }
    }

    /// LUFS; −∞ for silence (every block below the absolute gate, −70 LUFS).
    public var integratedLoudness: Double {
        var loudness = -Double.infinity
        guard ebur128_loudness_global(state, &loudness) == Int32(EBUR128_SUCCESS.rawValue) else {
            return -.infinity
        }
        return loudness
    }

    /// dBTP: the largest true peak of either channel.
    public var truePeak: Double {
        var peak = 0.0
        for channel in 0..<AudioFormat.channels {
            var value = 0.0
            if ebur128_true_peak(state, UInt32(channel), &value) == Int32(EBUR128_SUCCESS.rawValue) {
                peak = max(peak, value)
            }
        }
        return peak > 0 ? 20 * log10(peak) : -.infinity
    }

    /// Measures `count` samples of `source` from where it stands.
    public static func measure(_ source: any AudioSampleSource, count: Int) throws(MediaError) -> (
        loudness: Double, truePeak: Double
    ) {
        let meter = try LoudnessMeter()
        let block = 4800
        let scratch = StereoScratch()
        scratch.reserve(block)
        var done = 0
        while done < count {
            let n = min(block, count - done)
            try source.fill(left: scratch.planes[0], right: scratch.planes[1], count: n)
            try meter.add(left: scratch.planes[0], right: scratch.planes[1], count: n)
            done += n
        }
        return (meter.integratedLoudness, meter.truePeak)
    }
}

/// The one gain that brings a mix to a loudness target; the peaks it raises past the ceiling
/// are a `PeakLimiter`'s to hold.
public struct LoudnessGain: Sendable, Equatable {
    /// dB applied to the mix.
    public let decibels: Double

    /// `target` − `loudness`; silence (−∞ LUFS) is left alone.
    public init(loudness: Double, target: Double) {
        decibels = loudness.isFinite ? target - loudness : 0
    }

    public init(decibels: Double) {
        self.decibels = decibels.isFinite ? decibels : 0
    }

    public var linear: Float { Float(pow(10, decibels / 20)) }
}
