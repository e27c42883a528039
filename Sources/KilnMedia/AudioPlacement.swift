/// Where an audio file sits on the video's timeline and how loud it plays.
public struct AudioPlacement: Sendable, Hashable {
    /// Timeline seconds at which the (trimmed) audio begins; silence before.
    public var offset: Double
    /// Seconds cut from the start of the file.
    public var trimStart: Double
    /// File time at which the audio stops (nil: the file's end).
    public var trimEnd: Double?
    /// Linear gain (1 = as recorded).
    public var volume: Double
    /// Seconds of linear fade at the start and end of the placed audio.
    public var fadeIn: Double
    public var fadeOut: Double
    /// The trimmed part plays again and again until `loopEnd`.
    public var loop: Bool
    /// Timeline seconds where a looped track stops (the video's end), which its fade-out
    /// counts back from.
    public var loopEnd: Double
    /// The file plays this many times as fast (a sped-up clip's sound); `trimStart` and
    /// `trimEnd` stay in seconds of the file.
    public var speed: Double

    public init(
        offset: Double = 0, trimStart: Double = 0, trimEnd: Double? = nil, volume: Double = 1,
        fadeIn: Double = 0, fadeOut: Double = 0, loop: Bool = false, loopEnd: Double = 0, speed: Double = 1
    ) {
        self.speed = speed
        self.offset = offset
        self.trimStart = trimStart
        self.trimEnd = trimEnd
        self.volume = volume
        self.fadeIn = fadeIn
        self.fadeOut = fadeOut
        self.loop = loop
        self.loopEnd = loopEnd
    }
}
