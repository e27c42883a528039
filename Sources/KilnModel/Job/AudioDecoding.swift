import Foundation

/// Decodes the job's top-level `audio`: one track (an object with `path`), a list of tracks, or
/// `{"tracks": [...], "loudness": LUFS}` for a mix normalised to a loudness target.
enum AudioDecoding {
    static let longest = Double(OutputSettings.maximumDurationSeconds)
    /// Tracks are decoded and mixed together every block; past this many a job is more likely a
    /// mistake (or a bomb) than a soundtrack.
    static let maximumTracks = 32

    enum Key {
        static let path = ParameterKey<URL?>("path")
        static let name = ParameterKey<String>("name")
        static let offset = ParameterKey<Animated<Double>>("offset")
        static let trimStart = ParameterKey<Animated<Double>>("trimStart")
        static let trimEnd = ParameterKey<Animated<Double>>("trimEnd")
        static let volume = ParameterKey<Animated<Double>>("volume")
        static let fadeIn = ParameterKey<Animated<Double>>("fadeIn")
        static let fadeOut = ParameterKey<Animated<Double>>("fadeOut")
        static let loop = ParameterKey<Bool>("loop")
        static let duck = ParameterKey<JSONNode?>("duck")
    }

    static let parameters = ParameterTable([
        Parameter(
            Key.path, .assetPath,
            help:
                "the audio file, relative to the job file: WAV, MP3, AAC/M4A, FLAC, Opus or any file FFmpeg "
                + "decodes with an audio stream (the best one is used)"
        ),
        Parameter(
            Key.name, .string, default: .string(""),
            help: "what another track's duck.under calls this one (unique among the tracks)"),
        Parameter(
            Key.offset, .constantNumber(0...longest), default: .number(0),
            help: "timeline seconds at which the audio starts (silence before)"),
        Parameter(
            Key.trimStart, .constantNumber(0...longest), default: .number(0),
            help: "seconds cut from the start of the file; before the file's end"),
        Parameter(
            Key.trimEnd, .constantNumber(0...longest), default: .number(0),
            defaultDescription: "the file's end", help: "file time at which the audio stops; after trimStart"),
        Parameter(
            Key.volume, .number(0...16), default: .number(1),
            help:
                "linear gain: 1 as recorded, 0.5 ≈ −6 dB, 2 ≈ +6 dB (loud input may clip); keyframes run on the "
                + "timeline's clock"),
        Parameter(
            Key.fadeIn, .constantNumber(0...3600), default: .number(0),
            help: "seconds of linear fade-in at the start of the placed audio"),
        Parameter(
            Key.fadeOut, .constantNumber(0...3600), default: .number(0),
            help:
                "seconds of linear fade-out before the audio's end (trimEnd or the file's end; a looped track's "
                + "end is the video's)"),
        Parameter(
            Key.loop, .boolean, default: .boolean(false),
            help: "play the trimmed part again and again until the video ends"),
        Parameter(
            Key.duck,
            .structured(
                "{\"under\": name, \"amount\", \"threshold\", \"attack\", \"release\", \"hold\"}",
                schema: ValueSchema.object(duckTable)),
            default: .string("none"),
            help: "lower this track while the named track sounds (music under a voice)"),
    ])

    enum DuckKey {
        static let under = ParameterKey<String>("under")
        static let amount = ParameterKey<Animated<Double>>("amount")
        static let threshold = ParameterKey<Animated<Double>>("threshold")
        static let attack = ParameterKey<Animated<Double>>("attack")
        static let release = ParameterKey<Animated<Double>>("release")
        static let hold = ParameterKey<Animated<Double>>("hold")
    }

    static let duckTable = ParameterTable([
        Parameter(DuckKey.under, .string, help: "the name of the track whose sound lowers this one"),
        Parameter(
            DuckKey.amount, .constantNumber(0...60), default: .number(12), help: "dB this track is lowered by"
        ),
        Parameter(
            DuckKey.threshold, .constantNumber(-90...0), default: .number(-40),
            help: "dBFS (RMS over 10 ms) above which the other track counts as sounding"),
        Parameter(
            DuckKey.attack, .constantNumber(0.001...2), default: .number(0.08),
            help: "seconds to go down; taken before the other track starts (the mix looks ahead)"),
        Parameter(
            DuckKey.release, .constantNumber(0.01...10), default: .number(0.5),
            help: "seconds to come back up"),
        Parameter(
            DuckKey.hold, .constantNumber(0...5), default: .number(0.3),
            help: "seconds the other track may pause (between words) before this one comes back up"),
    ])

    enum MixKey {
        static let tracks = ParameterKey<JSONNode?>("tracks")
        static let loudness = ParameterKey<Animated<Double>>("loudness")
        static let truePeak = ParameterKey<Animated<Double>>("truePeak")
    }

    static let mixTable = ParameterTable([
        Parameter(
            MixKey.tracks,
            .structured(
                "array of tracks",
                schema: .array(of: ValueSchema.object(parameters), count: 1...maximumTracks)),
            help: "the tracks, mixed together; each is an object like the single-track form"),
        Parameter(
            MixKey.loudness, .constantNumber(-70 ... -5), default: .number(-16),
            defaultDescription: "as mixed",
            help:
                "integrated loudness (EBU R128, LUFS) the whole mix is brought to by one gain, e.g. −16 or −23"
        ),
        Parameter(
            MixKey.truePeak, .constantNumber(-9...0), default: .number(-1),
            help:
                "dBTP the normalised mix's true peak stays under: a look-ahead limiter holds the peaks the gain raises"
        ),
    ])

    /// The schema of `audio`: one track, a list of tracks, or the mix object.
    static var schema: JSONSchema {
        let track = ValueSchema.object(parameters)
        return .anyOf([
            track, .array(of: track, count: 1...maximumTracks), ValueSchema.object(mixTable),
        ])
    }

    static func decode(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> Soundtrack? {
        if let elements = node.elements {
            return decodeTracks(elements, node: node, path: path, context: context).map {
                Soundtrack(tracks: $0)
            }
        }
        guard node.members != nil else {
            context.error(
                "expected an object (one track, or {\"tracks\": […]}) or an array of tracks, got \(node.value.typeName)",
                at: node, path: path)
            return nil
        }
        guard node["tracks"] != nil else {
            return decodeTrack(node, path: path, context: context).map { Soundtrack(tracks: [$0]) }
        }
        let before = context.diagnostics.count
        let p = mixTable.decode(node, path: path, context: context)
        guard context.diagnostics.count == before, let list = p.node(MixKey.tracks),
            let elements = list.elements,
            let tracks = decodeTracks(elements, node: list, path: p.path(MixKey.tracks), context: context)
        else { return nil }
        let loudness =
            p.isPresent(MixKey.loudness)
            ? LoudnessTarget(
                integrated: p[MixKey.loudness].value(at: 0), truePeak: p[MixKey.truePeak].value(at: 0))
            : nil
        return Soundtrack(tracks: tracks, loudness: loudness)
    }

    private static func decodeTracks(
        _ elements: [JSONNode], node: JSONNode, path: JSONPath, context: DecodeContext
    )
        -> [AudioTrack]?
    {
        guard (1...maximumTracks).contains(elements.count) else {
            context.error(
                "expected 1 to \(maximumTracks) tracks, found \(elements.count)", at: node, path: path)
            return nil
        }
        let before = context.diagnostics.count
        let tracks = elements.enumerated().map { index, element in
            decodeTrack(element, path: path.index(index), context: context)
        }
        guard context.diagnostics.count == before else { return nil }
        let decoded = tracks.compactMap { $0 }
        checkNames(decoded, elements: elements, path: path, context: context)
        return context.diagnostics.count == before ? decoded : nil
    }

    /// Names are unique, and every duck names another track.
    private static func checkNames(
        _ tracks: [AudioTrack], elements: [JSONNode], path: JSONPath, context: DecodeContext
    ) {
        var seen: [String: Int] = [:]
        for (index, track) in tracks.enumerated() {
            guard let name = track.name else { continue }
            if let first = seen[name] {
                context.error(
                    "the name '\(name)' is already track \(first)'s; names must be unique",
                    at: elements[index]["name"],
                    path: path.index(index).key("name"))
            }
            seen[name] = seen[name] ?? index
        }
        for (index, track) in tracks.enumerated() {
            guard let duck = track.duck else { continue }
            let at = elements[index]["duck"]?["under"], duckPath = path.index(index).key("duck").key("under")
            if duck.under == track.name {
                context.error("a track cannot duck under itself", at: at, path: duckPath)
            } else if seen[duck.under] == nil {
                let names = seen.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
                context.error(
                    "no track is named '\(duck.under)'"
                        + (names.isEmpty ? " (give the voice track a \"name\")" : "; the names are \(names)"),
                    at: at, path: duckPath)
            }
        }
    }

    static func decodeTrack(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> AudioTrack? {
        let before = context.diagnostics.count
        let p = parameters.decode(node, path: path, context: context)
        guard context.diagnostics.count == before else { return nil }
        func constant(_ key: ParameterKey<Animated<Double>>) -> Double { p[key].value(at: 0) }
        let trimStart = constant(Key.trimStart)
        let trimEnd = p.isPresent(Key.trimEnd) ? constant(Key.trimEnd) : nil
        if let trimEnd, trimEnd <= trimStart {
            context.error(
                "trimEnd (\(NumberText.format(trimEnd)) s) must be after trimStart (\(NumberText.format(trimStart)) s)",
                at: p.node(Key.trimEnd), path: p.path(Key.trimEnd))
        }
        var duck: Ducking?
        if let duckNode = p.node(Key.duck) {
            let d = duckTable.decode(duckNode, path: p.path(Key.duck), context: context)
            if context.diagnostics.count == before {
                func value(_ key: ParameterKey<Animated<Double>>) -> Double { d[key].value(at: 0) }
                duck = Ducking(
                    under: d[DuckKey.under], amount: value(DuckKey.amount),
                    threshold: value(DuckKey.threshold),
                    attack: value(DuckKey.attack), release: value(DuckKey.release), hold: value(DuckKey.hold))
            }
        }
        let name = p[Key.name]
        if p.isPresent(Key.name) && name.isEmpty {
            context.error("expected a non-empty name", at: p.node(Key.name), path: p.path(Key.name))
        }
        guard context.diagnostics.count == before, let url = p[Key.path] else { return nil }
        if let probe = context.services.service((any AudioProbing).self) {
            do {
                let duration = try probe.audioDuration(at: url)
                if let problem = context.limits.violation(
                    .audioSeconds, duration, "the duration in seconds of \(url.lastPathComponent)")
                {
                    context.error(problem, at: p.node(Key.path), path: p.path(Key.path))
                    return nil
                }
                if duration > 0 && trimStart >= duration {
                    context.error(
                        "trimStart (\(NumberText.format(trimStart)) s) is at or past the end of the audio (\(NumberText.format(duration)) s)",
                        at: p.node(Key.trimStart), path: p.path(Key.trimStart))
                    return nil
                }
            } catch {
                context.error(
                    "cannot read audio from '\(url.lastPathComponent)': \(error)", at: p.node(Key.path),
                    path: p.path(Key.path))
                return nil
            }
        }
        return AudioTrack(
            path: url, name: name.isEmpty ? nil : name, offset: constant(Key.offset), trimStart: trimStart,
            trimEnd: trimEnd, volume: p[Key.volume], fadeIn: constant(Key.fadeIn),
            fadeOut: constant(Key.fadeOut),
            loop: p[Key.loop], duck: duck)
    }
}

extension DecodeContext {
    /// Adds a video clip's sound to the mix; the soundtrack holds at most
    /// `AudioDecoding.maximumTracks` sounds in all.
    public func addClipSound(_ track: AudioTrack, at node: JSONNode?, path: JSONPath) {
        let tracks = (soundtrack?.tracks.count ?? 0) + clipSounds.count
        guard tracks < AudioDecoding.maximumTracks else {
            error(
                "more than \(AudioDecoding.maximumTracks) sounds to mix (audio tracks and clips with sound); "
                    + "mute this clip (\"muted\": true) or others", at: node, path: path)
            return
        }
        clipSounds.append(track)
    }
}
