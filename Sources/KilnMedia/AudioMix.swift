import Foundation

/// Several timeline sources mixed into one, in float, block by block: each input's volume curve,
/// then ducking (an input lowered while another sounds), then the sum and one master gain.
///
/// The mix runs `lookahead` blocks ahead of what it hands out, so a duck can go down before the
/// voice it makes room for starts, without delaying anything: every input is read that far
/// ahead, and the block handed out is the oldest one held.
public final class AudioMix: AudioSampleSource {
    /// 10 ms at 48 kHz: the resolution of levels, ducking and volume curves (ramped per sample
    /// within a block).
    public static let block = 480

    public struct Input {
        public var source: any AudioSampleSource
        /// Linear gain at a timeline second; nil plays at 1.
        public var volume: (@Sendable (Double) -> Double)?
        public var duck: Duck?

        public init(
            source: any AudioSampleSource, volume: (@Sendable (Double) -> Double)? = nil, duck: Duck? = nil
        ) {
            self.source = source
            self.volume = volume
            self.duck = duck
        }
    }

    /// Lower this input by `amount` dB while input `key` is above `threshold` dBFS (RMS of a block),
    /// going down over `attack` seconds (before the key starts) and back up over `release` once
    /// the key has been quiet for `hold` seconds.
    public struct Duck: Sendable {
        public var key: Int
        public var amount: Double
        public var threshold: Double
        public var attack: Double
        public var release: Double
        public var hold: Double

        public init(
            key: Int, amount: Double, threshold: Double, attack: Double, release: Double, hold: Double
        ) {
            (self.key, self.amount, self.threshold) = (key, amount, threshold)
            (self.attack, self.release, self.hold) = (attack, release, hold)
        }
    }

    private let inputs: [Input]
    private let timelineStart: Double
    private let gain: Float
    /// Blocks read ahead of the one handed out.
    private let lookahead: Int
    private let slots: Int
    /// Per input, `slots` blocks of each channel, and each block's level (dBFS).
    private var left: [[Float]]
    private var right: [[Float]]
    private var levels: [[Double]]
    /// Per input: its duck's gain now (dB ≤ 0) and the last block its key was loud in.
    private var duckGain: [Double]
    private var lastLoud: [Int]
    /// The next block to hand out, and blocks read so far.
    private var nextOut = 0
    private var readBlocks = 0
    /// The block being handed out, and how much of it is.
    private var outLeft = [Float](repeating: 0, count: block)
    private var outRight = [Float](repeating: 0, count: block)
    private var outUsed = block

    /// `timelineStart`: the timeline second of the first sample (for volume curves); `gain`:
    /// linear, applied to the sum.
    public init(inputs: [Input], timelineStart: Double = 0, gain: Float = 1) {
        precondition(
            inputs.allSatisfy { $0.duck.map { inputs.indices.contains($0.key) } ?? true }, "duck key")
        self.inputs = inputs
        self.timelineStart = timelineStart
        self.gain = gain
        let seconds = Double(Self.block) / Double(AudioFormat.sampleRate)
        let ahead = inputs.compactMap(\.duck).map { Int(($0.attack / seconds).rounded(.up)) }.max() ?? 0
        lookahead = ahead
        slots = ahead + 1
        left = inputs.map { _ in [Float](repeating: 0, count: (ahead + 1) * Self.block) }
        right = left
        levels = inputs.map { _ in [Double](repeating: -.infinity, count: ahead + 1) }
        duckGain = inputs.map { _ in 0 }
        lastLoud = inputs.map { _ in Int.min / 2 }
    }

    public func fill(left l: UnsafeMutablePointer<Float>, right r: UnsafeMutablePointer<Float>, count: Int)
        throws(MediaError)
    {
        var done = 0
        while done < count {
            if outUsed == Self.block {
                try mixNextBlock()
                outUsed = 0
            }
            let n = min(count - done, Self.block - outUsed)
            for i in 0..<n {
                l[done + i] = outLeft[outUsed + i]
                r[done + i] = outRight[outUsed + i]
            }
            outUsed += n
            done += n
        }
    }

    private func seconds(ofBlock b: Int) -> Double {
        timelineStart + Double(b * Self.block) / Double(AudioFormat.sampleRate)
    }

    /// Reads block `readBlocks` of every input into its slot, with its volume, and its level.
    private func readBlock() throws(MediaError) {
        let slot = readBlocks % slots, base = slot * Self.block
        for (index, input) in inputs.enumerated() {
            try left[index].withUnsafeMutableBufferPointer { l throws(MediaError) in
                try right[index].withUnsafeMutableBufferPointer { r throws(MediaError) in
                    let (lp, rp) = (l.baseAddress! + base, r.baseAddress! + base)
                    try input.source.fill(left: lp, right: rp, count: Self.block)
                    if let volume = input.volume {
                        let from = Float(volume(seconds(ofBlock: readBlocks)))
                        let to = Float(volume(seconds(ofBlock: readBlocks + 1)))
                        let step = (to - from) / Float(Self.block)
                        for i in 0..<Self.block {
                            let g = from + step * Float(i)
                            lp[i] *= g
                            rp[i] *= g
                        }
                    }
                    var sum: Float = 0
                    for i in 0..<Self.block { sum += lp[i] * lp[i] + rp[i] * rp[i] }
                    let meanSquare = Double(sum) / Double(2 * Self.block)
                    levels[index][slot] = meanSquare > 0 ? 10 * log10(meanSquare) : -.infinity
                }
            }
        }
        readBlocks += 1
    }

    private func mixNextBlock() throws(MediaError) {
        while readBlocks <= nextOut + lookahead { try readBlock() }
        let block = nextOut, slot = block % slots, base = slot * Self.block
        let blockSeconds = Double(Self.block) / Double(AudioFormat.sampleRate)
        for i in 0..<Self.block {
            outLeft[i] = 0
            outRight[i] = 0
        }
        for (index, input) in inputs.enumerated() {
            var from: Float = 1, to: Float = 1
            if let duck = input.duck {
                // Loud now or within the attack ahead: going down; quiet for `hold`: coming up.
                let ahead = Int((duck.attack / blockSeconds).rounded(.up))
                if levels[duck.key][slot] >= duck.threshold { lastLoud[index] = block }
                let soon = (0...ahead).contains { levels[duck.key][(block + $0) % slots] >= duck.threshold }
                let held = Double(block - lastLoud[index]) * blockSeconds <= duck.hold
                let target = soon || held ? -duck.amount : 0
                let before = duckGain[index]
                let rate = target < before ? duck.amount / duck.attack : duck.amount / duck.release
                let stepped = before + (target < before ? -1 : 1) * rate * blockSeconds
                duckGain[index] = target < before ? max(target, stepped) : min(target, stepped)
                from = Float(pow(10, before / 20))
                to = Float(pow(10, duckGain[index] / 20))
            }
            let step = (to - from) / Float(Self.block)
            left[index].withUnsafeBufferPointer { l in
                right[index].withUnsafeBufferPointer { r in
                    for i in 0..<Self.block {
                        let g = (from + step * Float(i)) * gain
                        outLeft[i] += l[base + i] * g
                        outRight[i] += r[base + i] * g
                    }
                }
            }
        }
        nextOut += 1
    }
}
