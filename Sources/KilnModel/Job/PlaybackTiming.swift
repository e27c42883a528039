/// Where inside a played piece — a video clip, a nested composition — a time of the timeline
/// falls: `trim` cuts the piece, `offset` places the trimmed piece's start on the timeline,
/// `speed` plays it faster or slower and `loop` repeats the trimmed part. Both layers decode it
/// from the same four keys (`parameters(_:)`, `decode`), and differ only in what they show
/// outside the time it plays: a clip holds its first and last frames (`clipTime(at:)`), a
/// composition shows nothing (`localTime(at:)`), so a lower third is gone once it has played.
public struct PlaybackTiming: Sendable, Equatable {
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

    /// Where the timeline's `time` is in the trimmed piece.
    public enum Position: Sendable, Equatable {
        /// Before `offset`.
        case before
        /// Seconds of the piece.
        case playing(Double)
        /// From the trimmed end on, without `loop` (the end itself is not played, as a job's
        /// frames stop before its duration).
        case ended
    }

    /// trim.start + (t − offset) · speed, wrapped into the trimmed length when looping.
    public func position(at time: Double) -> Position {
        let length = trimEnd - trimStart
        let played = (time - offset) * speed
        // Frame times computed in floating point land a rounding error short of where they fall
        // exactly ((71/30 − 0.5) · 1.5 is 2.8 less an ulp): within a nanosecond counts as there.
        let slack = 1e-9 * max(1, abs(played))
        guard played > -slack else { return .before }
        guard length > 0 else { return .ended }
        let into = max(0, played)
        if loop {
            let wrapped = into.truncatingRemainder(dividingBy: length)
            return .playing(trimStart + (length - wrapped <= slack ? 0 : wrapped))
        }
        guard into < length - slack else { return .ended }
        return .playing(trimStart + into)
    }

    /// A composition's own time: nil before it starts and once it has played.
    public func localTime(at time: Double) -> Double? {
        guard case .playing(let seconds) = position(at: time) else { return nil }
        return seconds
    }

    /// Seconds of a clip; `excluding` asks for the last frame strictly before them (the trimmed
    /// clip's last frame, whose successor is cut away).
    public struct ClipTime: Sendable, Equatable {
        public let seconds: Double
        public let excluding: Bool

        public init(seconds: Double, excluding: Bool) {
            self.seconds = seconds
            self.excluding = excluding
        }
    }

    /// A clip's frame: its first before `offset`, its last once it has played.
    public func clipTime(at time: Double) -> ClipTime {
        switch position(at: time) {
        case .before: ClipTime(seconds: trimStart, excluding: false)
        case .playing(let seconds): ClipTime(seconds: seconds, excluding: false)
        case .ended: ClipTime(seconds: trimEnd, excluding: true)
        }
    }
}

extension PlaybackTiming {
    public enum Key {
        public static let trim = ParameterKey<JSONNode?>("trim")
        public static let offset = ParameterKey<Animated<Double>>("offset")
        public static let speed = ParameterKey<Animated<Double>>("speed")
        public static let loop = ParameterKey<Bool>("loop")
    }

    public enum TrimKey {
        public static let start = ParameterKey<Animated<Double>>("start")
        public static let end = ParameterKey<Animated<Double>>("end")
    }

    /// How the keys' help names what is played.
    public struct Wording: Sendable {
        /// "clip", "composition".
        public let piece: String
        /// The default of `trim.end`, e.g. "the clip's end".
        public let end: String
        /// What `trim.end` may be at most, e.g. "the clip's duration".
        public let duration: String
        /// `trim`'s help, e.g. "the part of the clip used, in seconds of the clip".
        public let trim: String
        /// What happens after the trimmed end without `loop`.
        public let afterEnd: String

        public init(piece: String, end: String, duration: String, trim: String, afterEnd: String) {
            self.piece = piece
            self.end = end
            self.duration = duration
            self.trim = trim
            self.afterEnd = afterEnd
        }
    }

    public static func trimTable(_ wording: Wording) -> ParameterTable {
        ParameterTable([
            Parameter(
                TrimKey.start, .constantNumber(0...86_400), default: .number(0),
                help: "seconds into the \(wording.piece) where the used part begins"),
            Parameter(
                TrimKey.end, .constantNumber(0...86_400), default: .number(0),
                defaultDescription: wording.end,
                help:
                    "seconds into the \(wording.piece) where the used part ends; after start, at most "
                    + wording.duration),
        ])
    }

    /// `trim`, `offset`, `speed` and `loop`, in that order, for a layer's table.
    public static func parameters(_ wording: Wording) -> [Parameter] {
        [
            Parameter(
                Key.trim,
                .structured(
                    "object {\"start\": s, \"end\": e}", schema: ValueSchema.object(trimTable(wording))),
                default: .string("none"), defaultDescription: "the whole \(wording.piece)", help: wording.trim
            ),
            Parameter(
                Key.offset, .constantNumber(0...86_400), default: .number(0),
                help: "timeline seconds at which the trimmed \(wording.piece) starts playing"),
            Parameter(
                Key.speed, .constantNumber(0.25...4), default: .number(1),
                help: "playback rate: 0.5 is half speed, 2 double"),
            Parameter(
                Key.loop, .boolean, default: .boolean(false),
                help: "repeat the trimmed \(wording.piece); otherwise \(wording.afterEnd)"),
        ]
    }

    /// The timing a layer wrote, checked against the piece's `duration` (nil when unknown: then
    /// `trim.end` is required, and `unknownDuration` is the error without it). `endName` names
    /// the end in messages ("the end of intro.mp4"). Nil after an error.
    public static func decode(
        _ params: DecodedParameters, wording: Wording, duration: Double?, endName: String,
        unknownDuration: @autoclosure () -> String, at node: JSONNode?, path: JSONPath,
        _ context: DecodeContext
    ) -> PlaybackTiming? {
        var start = 0.0
        var end = duration
        if let trimNode = params.node(Key.trim) {
            let errors = context.diagnostics.count
            let trim = trimTable(wording).decode(trimNode, path: params.path(Key.trim), context: context)
            guard context.diagnostics.count == errors else { return nil }
            start = trim[TrimKey.start].value(at: 0)
            if trim.isPresent(TrimKey.end) {
                let written = trim[TrimKey.end].value(at: 0)
                if let duration, written > duration {
                    context.error(
                        "trim end \(ResourceLimits.text(written)) s is past \(endName) "
                            + "(\(ResourceLimits.text(duration)) s)",
                        at: trim.node(TrimKey.end), path: trim.path(TrimKey.end))
                    return nil
                }
                end = written
            }
            guard let end, start < end else {
                let what = end.map { "its end (\(ResourceLimits.text($0)) s)" } ?? "its end"
                context.error(
                    "trim start \(ResourceLimits.text(start)) s must be before \(what)",
                    at: trim.node(TrimKey.start), path: trim.path(TrimKey.start))
                return nil
            }
        }
        guard let end else {
            context.error(unknownDuration(), at: node, path: path)
            return nil
        }
        return PlaybackTiming(
            trimStart: start, trimEnd: end, offset: params[Key.offset].value(at: 0),
            speed: params[Key.speed].value(at: 0), loop: params[Key.loop])
    }
}
