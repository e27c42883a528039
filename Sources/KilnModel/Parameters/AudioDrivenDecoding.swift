/// Decodes a number driven by the soundtrack:
/// `{"audio": "level" | "band", "track": name, "band": [lo, hi], "range": [a, b], "smoothing": s, "floor": dB}`.
/// The soundtrack is analysed once per (track, band) while the job loads (`AudioAnalyzing`), so
/// the value is a curve sampled 100 times a second, read at any frame's time.
enum AudioDrivenDecoding {
    enum Key {
        static let audio = ParameterKey<String>("audio")
        static let track = ParameterKey<String>("track")
        static let band = ParameterKey<JSONNode?>("band")
        static let range = ParameterKey<JSONNode?>("range")
        static let smoothing = ParameterKey<Animated<Double>>("smoothing")
        static let floor = ParameterKey<Animated<Double>>("floor")
    }

    static let table = ParameterTable([
        Parameter(
            Key.audio, .choice(["level", "band"]),
            help: "level: the loudness (RMS) of the track; band: its energy between band[0] and band[1] Hz"),
        Parameter(
            Key.track, .string, default: .string(""), defaultDescription: "the whole mix",
            help: "the name of the audio track to follow"),
        Parameter(
            Key.band, .structured("[low, high] Hz", schema: ValueSchema.point(bandRange)),
            default: .string("[100, 1000]"),
            help: "the frequencies audio band reads"),
        Parameter(
            Key.range, .structured("[a, b]", schema: ValueSchema.point(nil)), default: .string("[0, 1]"),
            help: "the values for silence (the floor) and for full scale; may run downwards"),
        Parameter(
            Key.smoothing, .constantNumber(0...5), default: .number(0.1),
            help: "seconds over which the level is smoothed (0: none)"),
        Parameter(
            Key.floor, .constantNumber(-120 ... -6), default: .number(-60),
            help: "dBFS mapped to range[0]; quieter sound reads the same"),
    ])

    static let bandRange = 20.0...20_000.0

    static var schema: JSONSchema { ValueSchema.object(table) }

    static func decode(_ node: JSONNode, path: JSONPath, range: ClosedRange<Double>?, context: DecodeContext)
        -> Animated<Double>?
    {
        let before = context.diagnostics.count
        let p = table.decode(node, path: path, context: context)
        guard context.diagnostics.count == before else { return nil }
        let mapped =
            p.node(Key.range).flatMap {
                ValueDecoding.constantPoint($0, path: p.path(Key.range), range: range, context: context)
            } ?? Point2(x: 0, y: 1)
        let band =
            p.node(Key.band).flatMap {
                ValueDecoding.constantPoint($0, path: p.path(Key.band), range: bandRange, context: context)
            } ?? Point2(x: 100, y: 1_000)
        if p[Key.audio] == "band" && band.x >= band.y {
            context.error("band[0] must be below band[1] (Hz)", at: p.node(Key.band), path: p.path(Key.band))
        }
        guard context.diagnostics.count == before else { return nil }
        guard let soundtrack = context.requireSoundtrack(at: node, path: path),
            let track = context.audioTrack(
                named: p[Key.track], at: p.node(Key.track), path: p.path(Key.track))
        else { return nil }
        let reading = AudioReading(
            track: track.index, band: p[Key.audio] == "band" ? band.x...band.y : nil,
            floor: p[Key.floor].value(at: 0), smoothing: p[Key.smoothing].value(at: 0))
        guard
            let levels = context.audioLevels(
                track: reading.track, bands: [reading.band], soundtrack: soundtrack, at: node, path: path)?
                .first
        else { return nil }
        let values = reading.normalised(levels).map { mapped.x + $0 * (mapped.y - mapped.x) }
        let animated = Animated<Double>.sampled(
            SampledCurve(start: 0, step: 1 / AudioReading.rate, values: values.isEmpty ? [mapped.x] : values))
        context.recordFrameInput(animated)
        return animated
    }
}

extension DecodeContext {
    /// The job's soundtrack, or an error at `node` saying a value there needs one.
    public func requireSoundtrack(at node: JSONNode?, path: JSONPath) -> Soundtrack? {
        guard let soundtrack, timelineDuration != nil else {
            error(
                "this reads the soundtrack, and the job has no \"audio\" (or its audio has errors)", at: node,
                path: path)
            return nil
        }
        return soundtrack
    }

    /// The soundtrack's track called `name` (the whole mix for an empty name); nil after an error
    /// when no track has that name.
    public func audioTrack(named name: String, at node: JSONNode?, path: JSONPath) -> AudioTrackChoice? {
        guard !name.isEmpty else { return AudioTrackChoice(index: nil) }
        let tracks = soundtrack?.tracks ?? []
        if let index = tracks.firstIndex(where: { $0.name == name }) { return AudioTrackChoice(index: index) }
        let names = tracks.compactMap(\.name).map { "'\($0)'" }.joined(separator: ", ")
        error(
            "no audio track is named '\(name)'"
                + (names.isEmpty ? " (give the track a \"name\")" : "; the names are \(names)"),
            at: node, path: path)
        return nil
    }

    /// Levels (dBFS, 100 a second from 0 through the end of the timeline) of `track` (nil: the
    /// mix) in each band (nil: whole), each analysed once per job however many values read it.
    public func audioLevels(
        track: Int?, bands: [ClosedRange<Double>?], soundtrack: Soundtrack, at node: JSONNode?, path: JSONPath
    ) -> [[Float]]? {
        let keys = bands.map { AudioAnalysisKey(track: track, band: $0) }
        let missing = bands.indices.filter { audioAnalyses[keys[$0]] == nil }
        if !missing.isEmpty {
            guard let analyzer = services.service((any AudioAnalyzing).self), let duration = timelineDuration
            else {
                error(
                    "reading the soundtrack needs an audio analyzer, and this loader has none", at: node,
                    path: path)
                return nil
            }
            // Each pass decodes the whole track: a job cannot ask for an unbounded number.
            guard audioAnalysisPasses < Self.maximumAudioAnalysisPasses else {
                error(
                    "more than \(Self.maximumAudioAnalysisPasses) different soundtrack readings (track and band pairs); "
                        + "share bands between values", at: node, path: path)
                return nil
            }
            audioAnalysisPasses += 1
            do {
                let levels = try analyzer.levels(
                    of: soundtrack, track: track, bands: missing.map { bands[$0] }, duration: duration,
                    hop: 1 / AudioReading.rate)
                for (k, index) in missing.enumerated() { audioAnalyses[keys[index]] = levels[k] }
            } catch {
                self.error("cannot analyse the soundtrack: \(error)", at: node, path: path)
                return nil
            }
        }
        return keys.map { audioAnalyses[$0] ?? [] }
    }
}

extension DecodeContext {
    static let maximumAudioAnalysisPasses = 64
}

/// The track a soundtrack reading follows: `index` into the soundtrack's tracks, nil for the mix.
public struct AudioTrackChoice: Sendable, Equatable {
    public let index: Int?
}

struct AudioAnalysisKey: Hashable {
    var track: Int?
    var band: ClosedRange<Double>?
}
