/// Where inside a nested composition a time of the timeline that plays it falls, with the words
/// of a video layer's `VideoTiming`: `offset` places the trimmed composition's start on the
/// timeline, `trim` cuts it, `speed` plays it faster or slower and `loop` repeats the trimmed
/// part. Unlike a clip, which holds its first and last frames, a composition shows nothing
/// outside the time it plays: a lower third is gone once it has played.
public struct CompositionTiming: Sendable, Equatable {
    public let trimStart: Double
    public let trimEnd: Double
    public let offset: Double
    public let speed: Double
    public let loop: Bool

    public init(trimStart: Double, trimEnd: Double, offset: Double, speed: Double, loop: Bool) {
        self.trimStart = trimStart
        self.trimEnd = trimEnd
        self.offset = offset
        self.speed = speed
        self.loop = loop
    }

    /// trim.start + (t − offset) · speed, wrapped into the trimmed length when looping; nil
    /// before `offset` and, without `loop`, from the trimmed end on (the end is not shown, as a
    /// job's frames stop before its duration).
    public func localTime(at time: Double) -> Double? {
        let length = trimEnd - trimStart
        let played = (time - offset) * speed
        // Frame times computed in floating point land a rounding error short of where they fall
        // exactly: within a nanosecond counts as there, as for clips.
        let slack = 1e-9 * max(1, abs(played))
        guard played > -slack, length > 0 else { return nil }
        let into = max(0, played)
        if loop {
            let wrapped = into.truncatingRemainder(dividingBy: length)
            return trimStart + (length - wrapped <= slack ? 0 : wrapped)
        }
        guard into < length - slack else { return nil }
        return trimStart + into
    }
}
