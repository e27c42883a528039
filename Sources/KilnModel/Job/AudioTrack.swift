import Foundation

/// One audio file of the job's soundtrack, placed on the timeline: trimmed, delayed, looped,
/// faded, with a volume that may change over time, and optionally ducked under another track.
public struct AudioTrack: Sendable {
    /// Resolved relative to the job file.
    public var path: URL
    /// What other tracks' `duck.under` calls it; nil when none does.
    public var name: String?
    /// Timeline seconds at which the audio starts.
    public var offset: Double
    /// Seconds cut from the start of the file.
    public var trimStart: Double
    /// File time at which the audio stops; nil plays to the file's end.
    public var trimEnd: Double?
    /// Linear gain over timeline time: 1 plays as recorded, 0.5 is about −6 dB.
    public var volume: Animated<Double>
    public var fadeIn: Double
    public var fadeOut: Double
    /// Plays the trimmed part again and again until the video ends.
    public var loop: Bool
    public var duck: Ducking?
    /// Played this many times as fast (a sped-up video clip's sound); trims stay in the file's
    /// seconds.
    public var speed: Double

    public init(
        path: URL, name: String? = nil, offset: Double = 0, trimStart: Double = 0, trimEnd: Double? = nil,
        volume: Animated<Double> = .constant(1), fadeIn: Double = 0, fadeOut: Double = 0, loop: Bool = false,
        duck: Ducking? = nil, speed: Double = 1
    ) {
        self.speed = speed
        self.path = path
        self.name = name
        self.offset = offset
        self.trimStart = trimStart
        self.trimEnd = trimEnd
        self.volume = volume
        self.fadeIn = fadeIn
        self.fadeOut = fadeOut
        self.loop = loop
        self.duck = duck
    }
}

/// A track lowered while another (a voice) is sounding, as editors duck music under speech.
public struct Ducking: Sendable, Hashable {
    /// The name of the track whose sound lowers this one.
    public var under: String
    /// How far this track is lowered, in dB (positive).
    public var amount: Double
    /// The level (dBFS, RMS over 10 ms) above which the other track counts as sounding.
    public var threshold: Double
    /// Seconds to go down (taken before the other track starts: the mix looks ahead) and to come
    /// back up, and how long the other track may pause (between words) before it does.
    public var attack: Double
    public var release: Double
    public var hold: Double

    public init(
        under: String, amount: Double = 12, threshold: Double = -40, attack: Double = 0.08,
        release: Double = 0.5,
        hold: Double = 0.3
    ) {
        self.under = under
        self.amount = amount
        self.threshold = threshold
        self.attack = attack
        self.release = release
        self.hold = hold
    }
}

/// The job's soundtrack: one or more tracks mixed in float and encoded once as AAC, as long as
/// the video, optionally normalised to a loudness target.
public struct Soundtrack: Sendable {
    public var tracks: [AudioTrack]
    public var loudness: LoudnessTarget?

    public init(tracks: [AudioTrack], loudness: LoudnessTarget? = nil) {
        self.tracks = tracks
        self.loudness = loudness
    }
}

/// EBU R128 normalisation of the whole mix: one gain that brings its integrated loudness to
/// `integrated` LUFS, lowered when that would put the true peak above `truePeak` dBTP.
public struct LoudnessTarget: Sendable, Hashable {
    public var integrated: Double
    public var truePeak: Double

    public init(integrated: Double, truePeak: Double = -1) {
        self.integrated = integrated
        self.truePeak = truePeak
    }
}
