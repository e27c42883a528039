import Foundation

/// Analyses the soundtrack while a job is decoded, for numbers driven by it (`{"audio": …}`) and
/// audiogram layers. Registered by the media layer; without it such values are refused.
public protocol AudioAnalyzing: Sendable {
    /// Every `hop` seconds of the timeline from 0 through `duration`: for each band (nil: the
    /// whole signal), the RMS level in dBFS (a full-scale sine reads −3) of track `track` of
    /// `soundtrack` as placed on the timeline (nil: the whole mix), before any loudness gain.
    func levels(
        of soundtrack: Soundtrack, track: Int?, bands: [ClosedRange<Double>?], duration: Double, hop: Double
    ) throws -> [[Float]]
}

/// What a soundtrack-driven value reads: the level of a track or the mix, whole or in one
/// frequency band, mapped from `floor`…0 dBFS onto `range` and smoothed.
public struct AudioReading: Sendable, Hashable {
    /// The track's index in the soundtrack; nil for the whole mix.
    public var track: Int?
    /// Hz; nil for the whole signal.
    public var band: ClosedRange<Double>?
    public var floor: Double
    /// Seconds: the time constant of a one-pole smoother (0: none).
    public var smoothing: Double

    public init(track: Int?, band: ClosedRange<Double>?, floor: Double = -60, smoothing: Double = 0.1) {
        (self.track, self.band, self.floor, self.smoothing) = (track, band, floor, smoothing)
    }

    /// Analysis samples per second of timeline.
    public static let rate = 100.0

    /// Levels (dBFS per sample) as 0…1: `floor` and below are 0, 0 dBFS is 1, then smoothed
    /// from the timeline's start, so every frame reads the same value however the video is cut.
    public func normalised(_ levels: [Float]) -> [Double] {
        let alpha = smoothing > 0 ? 1 - exp(-1 / (Self.rate * smoothing)) : 1
        var state = 0.0
        return levels.map { level in
            let unit = min(1, max(0, (Double(level) - floor) / -floor))
            state += (unit - state) * alpha
            return state
        }
    }
}
