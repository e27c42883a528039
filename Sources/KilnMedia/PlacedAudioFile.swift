/// An audio file placed on the timeline: silence until `offset`, then the file from `trimStart`
/// to `trimEnd` (again and again when looped) with gain and fades, then silence. All positions
/// are whole samples at 48 kHz, rounded once, so placement is exact whatever the block sizes.
public final class PlacedAudioFile: AudioSampleSource {
    private let path: String
    private var reader: AudioFileReader
    private let gain: Float
    private let loop: Bool
    /// Timeline sample where the content starts, and one pass's length (nil: until the file ends).
    private let start: Int
    private let length: Int?
    private let fadeInSamples: Int
    private let fadeOutSamples: Int
    private var position = 0
    private var trimmed = false
    private let trimSamples: Int
    private var ended = false
    /// Where the current pass began, in content samples (0 unless looped).
    private var passStart = 0
    private var decodeErrorsBefore = 0
    private let speed: Double

    /// `timelineStart`: the timeline second of the first sample filled (the start of a video
    /// that shows only part of the timeline); the content before it is skipped, its gain and fades
    /// still counted from the content's own start.
    public init(path: String, placement: AudioPlacement, from timelineStart: Double = 0) throws(MediaError) {
        self.path = path
        speed = placement.speed
        reader = try AudioFileReader(path: path, speed: placement.speed)
        let rate = Double(AudioFormat.sampleRate)
        func samples(_ seconds: Double) -> Int { Int((max(0, seconds) * rate).rounded()) }
        // Times in the file last 1/speed on the timeline.
        let speed = reader.speed
        start = samples(placement.offset)
        position = samples(timelineStart)
        trimSamples = samples(placement.trimStart / speed)
        length = placement.trimEnd.map { max(0, samples($0 / speed) - samples(placement.trimStart / speed)) }
        gain = Float(placement.volume)
        loop = placement.loop
        fadeInSamples = samples(placement.fadeIn)
        fadeOutSamples = samples(placement.fadeOut)
        // A fade-out needs the content's end: the loop's end, or what the container's duration
        // tells in advance.
        contentLength =
            loop
            ? max(0, samples(placement.loopEnd) - start)
            : length ?? max(0, samples(reader.info.durationSeconds / speed) - trimSamples)
    }

    /// Samples of content the fade-out counts back from.
    private let contentLength: Int

    public var decodeErrors: Int { decodeErrorsBefore + reader.decodeErrors }

    public func fill(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int)
        throws(MediaError)
    {
        var done = 0
        while done < count {
            let remaining = count - done
            let intoContent = position - start
            if intoContent < 0 || ended || (loop && intoContent >= contentLength) {
                // Silence before the content starts, or after it ends.
                let n = intoContent < 0 && !ended ? min(remaining, -intoContent) : remaining
                (left + done).update(repeating: 0, count: n)
                (right + done).update(repeating: 0, count: n)
                done += n
                position += n
                continue
            }
            if !trimmed {
                // Past the content's start already when the timeline starts inside it.
                let pass = loop ? passLength : nil
                let into = pass.map { intoContent % max(1, $0) } ?? intoContent
                passStart = intoContent - into
                _ = try reader.skip(trimSamples + into)
                trimmed = true
            }
            var want = remaining
            if let length { want = min(want, length - (intoContent - passStart)) }
            if loop { want = min(want, contentLength - intoContent) }
            let got = want > 0 ? try reader.read(left: left + done, right: right + done, count: want) : 0
            if got == 0 {
                // A pass that played nothing would loop for ever.
                if loop && intoContent > passStart {
                    try startNextPass(at: intoContent)
                } else {
                    ended = true
                }
                continue
            }
            applyGain(left + done, right + done, count: got, contentIndex: intoContent)
            done += got
            position += got
        }
    }

    /// One pass's samples when looping: the trimmed length, or the file's own from the trim.
    private var passLength: Int? {
        length ?? Int((reader.info.durationSeconds / speed * Double(AudioFormat.sampleRate)).rounded())
            - trimSamples
    }

    /// Opens the file again at the trim: decoders keep state (priming, resampler delay), so a
    /// fresh reader gives each pass exactly the first pass's samples.
    private func startNextPass(at contentIndex: Int) throws(MediaError) {
        decodeErrorsBefore += reader.decodeErrors
        reader = try AudioFileReader(path: path, speed: speed)
        _ = try reader.skip(trimSamples)
        passStart = contentIndex
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
