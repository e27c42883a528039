/// An audio file placed on the timeline: silence until `offset`, then the file from `trimStart`
/// to `trimEnd` with gain and fades, then silence. All positions are whole samples at 48 kHz,
/// rounded once, so placement is exact whatever the block sizes.
public final class PlacedAudioFile: AudioSampleSource {
    private let reader: AudioFileReader
    private let gain: Float
    /// Timeline sample where the content starts, and its length (nil: until the file ends).
    private let start: Int
    private let length: Int?
    private let fadeInSamples: Int
    private let fadeOutSamples: Int
    private var position = 0
    private var trimmed = false
    private let trimSamples: Int
    private var ended = false

    /// `timelineStart`: the timeline second of the first sample filled (the start of a video
    /// that shows only part of the timeline); the content before it is skipped, its gain and fades
    /// still counted from the content's own start.
    public init(path: String, placement: AudioPlacement, from timelineStart: Double = 0) throws(MediaError) {
        reader = try AudioFileReader(path: path)
        let rate = Double(AudioFormat.sampleRate)
        func samples(_ seconds: Double) -> Int { Int((max(0, seconds) * rate).rounded()) }
        start = samples(placement.offset)
        position = samples(timelineStart)
        trimSamples = samples(placement.trimStart)
        length = placement.trimEnd.map { max(0, samples($0) - samples(placement.trimStart)) }
        gain = Float(placement.volume)
        fadeInSamples = samples(placement.fadeIn)
        fadeOutSamples = samples(placement.fadeOut)
        // A fade-out needs the content's end, which only the container's duration tells in advance.
        let knownEnd =
            length ?? max(0, samples(reader.info.durationSeconds) - trimSamples)
        contentLength = knownEnd
    }

    /// Samples of content the fade-out counts back from (the trimmed length, or the file's
    /// duration from the container).
    private let contentLength: Int

    public var decodeErrors: Int { reader.decodeErrors }

    public func fill(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int)
        throws(MediaError)
    {
        var done = 0
        while done < count {
            let remaining = count - done
            let intoContent = position - start
            if intoContent < 0 || ended {
                // Silence before the content starts, or after it ends.
                let n = ended ? remaining : min(remaining, -intoContent)
                (left + done).update(repeating: 0, count: n)
                (right + done).update(repeating: 0, count: n)
                done += n
                position += n
                continue
            }
            if !trimmed {
                // Past the content's start already when the timeline starts inside it.
                _ = try reader.skip(trimSamples + intoContent)
                trimmed = true
            }
            var want = remaining
            if let length { want = min(want, length - intoContent) }
            let got = want > 0 ? try reader.read(left: left + done, right: right + done, count: want) : 0
            if got == 0 {
                ended = true
                continue
            }
            applyGain(left + done, right + done, count: got, contentIndex: intoContent)
            done += got
            position += got
        }
    }

    private func applyGain(
        _ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, count: Int,
        contentIndex: Int
    ) {
        for i in 0..<count {
            let k = contentIndex + i
            var g = gain
            if fadeInSamples > 0 && k < fadeInSamples { g *= Float(k) / Float(fadeInSamples) }
            let fromEnd = contentLength - k
            if fadeOutSamples > 0 && contentLength > 0 && fromEnd < fadeOutSamples {
                g *= Float(max(0, fromEnd)) / Float(fadeOutSamples)
            }
            left[i] *= g
            right[i] *= g
        }
    }
}
