import CFFmpeg
import Foundation

/// Levels of a timeline audio source every `hop` samples: the RMS of both channels over a
/// window centred on each hop, and for frequency bands the same RMS read from a Hann-windowed
/// FFT (libavutil's real transform) of the channels' mean, so a sine in the band reads what it
/// reads in the whole-signal level. dBFS; a full-scale sine reads −3, silence −∞ (as −200).
public final class AudioAnalysis {
    public static let window = 2048

    private let bands: [ClosedRange<Double>?]
    private var context: OpaquePointer?
    private var transform: av_tx_fn?
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<AVComplexFloat>
    private let hann: [Float]
    private let windowPower: Double

    public init(bands: [ClosedRange<Double>?]) throws(MediaError) {
        self.bands = bands
        let n = Self.window
        guard let input = av_malloc(n * MemoryLayout<Float>.size)?.assumingMemoryBound(to: Float.self),
            let output = av_malloc((n / 2 + 1) * MemoryLayout<AVComplexFloat>.size)?
                .assumingMemoryBound(to: AVComplexFloat.self)
        else { throw MediaError.failure("av_malloc", "out of memory") }
        (self.input, self.output) = (input, output)
        hann = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
        windowPower = hann.reduce(0.0) { $0 + Double($1 * $1) }
        if bands.contains(where: { $0 != nil }) {
            var scale: Float = 1
            let status = av_tx_init(&context, &transform, AV_TX_FLOAT_RDFT, 0, Int32(n), &scale, 0)
            guard status >= 0, context != nil else {
                av_free(input)
                av_free(output)
                throw MediaError(function: "av_tx_init", code: status, message: "no real FFT of \(n) points")
            }
        }
    }

    deinit {
        av_tx_uninit(&context)
        av_free(input)
        av_free(output)
    }

    /// Reads `hops` × `hop` samples of `source` (from where it stands, which is hop 0's centre)
    /// and returns, per band, one level per hop.
    public func levels(of source: any AudioSampleSource, hops: Int, hop: Int) throws(MediaError) -> [[Float]]
    {
        let n = Self.window, half = n / 2
        // Samples centre − half … centre + half of the channels, the first half silence before 0.
        var left = [Float](repeating: 0, count: n), right = left
        var result = bands.map { _ in [Float]() }
        for band in result.indices { result[band].reserveCapacity(hops) }
        let scratch = StereoScratch()
        scratch.reserve(n)
        // Prime the second half of the first window.
        try source.fill(left: scratch.planes[0], right: scratch.planes[1], count: half)
        for i in 0..<half {
            left[half + i] = scratch.planes[0][i]
            right[half + i] = scratch.planes[1][i]
        }
        for k in 0..<hops {
            // One transform per hop, whatever the number of bands.
            if transform != nil { spectrum(left, right) }
            for (index, band) in bands.enumerated() {
                result[index].append(Float(level(left, right, band: band)))
            }
            guard k + 1 < hops else { break }
            // Slide by one hop.
            left.removeFirst(hop)
            right.removeFirst(hop)
            try source.fill(left: scratch.planes[0], right: scratch.planes[1], count: hop)
            left.append(contentsOf: UnsafeBufferPointer(start: scratch.planes[0], count: hop))
            right.append(contentsOf: UnsafeBufferPointer(start: scratch.planes[1], count: hop))
        }
        return result
    }

    /// The Hann-windowed spectrum of the channels' mean into `output`.
    private func spectrum(_ left: [Float], _ right: [Float]) {
        guard let transform else { return }
        for i in 0..<Self.window { input[i] = (left[i] + right[i]) * 0.5 * hann[i] }
        transform(context, output, input, MemoryLayout<Float>.stride)
    }

    /// A band's level reads the spectrum `spectrum` made for this hop.
    private func level(_ left: [Float], _ right: [Float], band: ClosedRange<Double>?) -> Double {
        let n = Self.window
        var meanSquare: Double
        if let band {
            let binWidth = Double(AudioFormat.sampleRate) / Double(n)
            let first = max(1, Int((band.lowerBound / binWidth).rounded(.up)))
            let last = min(n / 2 - 1, Int((band.upperBound / binWidth).rounded(.down)))
            var power = 0.0
            if first <= last {
                for k in first...last {
                    let c = output[k]
                    power += Double(c.re * c.re + c.im * c.im)
                }
            }
            // Parseval: the positive bins hold half the windowed signal's energy, N·Σ(xw)² in all.
            meanSquare = 2 * power / (Double(n) * windowPower)
        } else {
            var sum = 0.0
            for i in 0..<n { sum += Double(left[i] * left[i] + right[i] * right[i]) }
            meanSquare = sum / Double(2 * n)
        }
        return meanSquare > 1e-20 ? 10 * log10(meanSquare) : -200
    }
}
