import Foundation

/// A look-ahead peak limiter on a timeline source, stereo-linked: no sample leaves above
/// `ceiling`, the gain going down over the `lookahead` before a peak (a moving average of the
/// window's smallest needed gain, which reaches that gain exactly at the peak) and back up with
/// a `release` time constant. The source is read `lookahead` samples ahead, so the output is not
/// delayed: sample n out is sample n in, limited. It is what lets a loudness target be met by a
/// peaky voice, as broadcast limiters do, instead of the target being given up.
public final class PeakLimiter: AudioSampleSource {
    private let source: any AudioSampleSource
    private let ceiling: Float
    private let lookahead: Int
    private let releaseStep: Double
    /// The last `lookahead + 1` needed gains and delayed samples, as rings.
    private var needed: [Float]
    private var delayedLeft: [Float]
    private var delayedRight: [Float]
    /// The window minima of the last `lookahead` samples (the moving average's terms) and their sum.
    private var minima: [Float]
    private var minimaSum: Double
    private var released: Float = 1
    /// Indices (newest last) of the window's samples that may still be its minimum: their
    /// needed gains increase from first to last.
    private var candidates: [Int] = []
    /// The first of `candidates` still in the window (those before it have left).
    private var head = 0
    /// How many of `minima` are below 1.
    private var limitedTerms = 0
    private var index = 0
    private var primed = false
    private let scratch = StereoScratch()

    /// Gain applied at the deepest point so far (1: the limiter never acted), for reports.
    public private(set) var deepestGain: Float = 1

    public init(source: any AudioSampleSource, ceiling: Float, lookahead: Int = 240, release: Double = 0.05) {
        self.source = source
        self.ceiling = ceiling
        self.lookahead = max(1, lookahead)
        releaseStep = 1 - exp(-1 / (max(release, 1e-3) * Double(AudioFormat.sampleRate)))
        needed = [Float](repeating: 1, count: self.lookahead + 1)
        delayedLeft = [Float](repeating: 0, count: self.lookahead + 1)
        delayedRight = delayedLeft
        minima = [Float](repeating: 1, count: self.lookahead)
        minimaSum = Double(self.lookahead)
    }

    public func fill(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int)
        throws(MediaError)
    {
        if !primed {
            // The first `lookahead` samples only fill the window: their outputs would be silence.
            primed = true
            try pull(count: lookahead, left: nil, right: nil)
        }
        try pull(count: count, left: left, right: right)
    }

    private func pull(count: Int, left: UnsafeMutablePointer<Float>?, right: UnsafeMutablePointer<Float>?)
        throws(MediaError)
    {
        scratch.reserve(count)
        let (inLeft, inRight) = (scratch.planes[0], scratch.planes[1])
        try source.fill(left: inLeft, right: inRight, count: count)
        let slots = lookahead + 1
        for i in 0..<count {
            let slot = index % slots
            let peak = max(abs(inLeft[i]), abs(inRight[i]))
            let gain: Float = peak > ceiling ? ceiling / peak : 1
            needed[slot] = gain
            delayedLeft[slot] = inLeft[i]
            delayedRight[slot] = inRight[i]
            // The smallest gain any sample of the window needs (a monotonic queue of the window's
            // candidates: O(1) a sample), released smoothly upwards.
            while candidates.count > head, needed[candidates[candidates.count - 1] % slots] >= gain {
                candidates.removeLast()
            }
            candidates.append(index)
            while candidates[head] <= index - slots { head += 1 }
            if head >= 4_096 {
                candidates.removeFirst(head)
                head = 0
            }
            let windowMinimum = min(1, needed[candidates[head] % slots])
            released = min(windowMinimum, released + Float(Double(1 - released) * releaseStep))
            // Within a hundredth of a dB of free: free, so quiet stretches come out bit for bit.
            if released > windowMinimum * 0.99885 { released = windowMinimum }
            let term = index % lookahead
            minimaSum += Double(released) - Double(minima[term])
            if minima[term] < 1 { limitedTerms -= 1 }
            if released < 1 { limitedTerms += 1 }
            minima[term] = released
            // A window with nothing to limit is exactly 1: the running sum's rounding is dropped.
            if limitedTerms == 0 { minimaSum = Double(lookahead) }
            if let left, let right {
                // The sample `lookahead` ago, under the average of the window's minima.
                let gain = min(1, Float(minimaSum / Double(lookahead)))
                deepestGain = min(deepestGain, gain)
                let out = (index + 1) % slots
                left[i] = delayedLeft[out] * gain
                right[i] = delayedRight[out] * gain
            }
            index += 1
        }
    }
}
