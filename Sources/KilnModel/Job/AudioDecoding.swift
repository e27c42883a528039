/// Decodes the job's top-level `audio` object.
enum AudioDecoding {
    static let longest = Double(OutputSettings.maximumDurationSeconds)

    static let parameters = ParameterTable([
        Parameter(
            "path", .assetPath,
            help:
                "the soundtrack, relative to the job file: WAV, MP3, AAC/M4A, FLAC, Opus or any file FFmpeg "
                + "decodes with an audio stream (the best one is used)"
        ),
        Parameter(
            "offset", .constantNumber(0...longest), default: .number(0),
            help: "timeline seconds at which the audio starts (silence before)"),
        Parameter(
            "trimStart", .constantNumber(0...longest), default: .number(0),
            help: "seconds cut from the start of the file; before the file's end"),
        Parameter(
            "trimEnd", .constantNumber(0...longest), default: .number(0),
            defaultDescription: "the file's end", help: "file time at which the audio stops; after trimStart"),
        Parameter(
            "volume", .constantNumber(0...16), default: .number(1),
            help: "linear gain: 1 as recorded, 0.5 ≈ −6 dB, 2 ≈ +6 dB (loud input may clip)"),
        Parameter(
            "fadeIn", .constantNumber(0...3600), default: .number(0),
            help: "seconds of linear fade-in at the start of the placed audio"),
        Parameter(
            "fadeOut", .constantNumber(0...3600), default: .number(0),
            help: "seconds of linear fade-out before the audio's end (trimEnd, or the file's end)"),
    ])

    static func decode(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> AudioTrack? {
        let before = context.diagnostics.count
        let p = parameters.decode(node, path: path, context: context)
        func constant(_ name: String) -> Double { p.number(name).value(at: 0) }
        let trimStart = constant("trimStart")
        let trimEnd = p.isPresent("trimEnd") ? constant("trimEnd") : nil
        if let trimEnd, trimEnd <= trimStart, context.diagnostics.count == before {
            context.error(
                "trimEnd (\(NumberText.format(trimEnd)) s) must be after trimStart (\(NumberText.format(trimStart)) s)",
                at: p.node("trimEnd"), path: p.path("trimEnd"))
        }
        guard context.diagnostics.count == before, let url = p.asset("path") else { return nil }
        if let probe = context.services.service((any AudioProbing).self) {
            do {
                let duration = try probe.audioDuration(at: url)
                if let problem = context.limits.violation(
                    .audioSeconds, duration, "the duration in seconds of \(url.lastPathComponent)")
                {
                    context.error(problem, at: p.node("path"), path: p.path("path"))
                    return nil
                }
                if duration > 0 && trimStart >= duration {
                    context.error(
                        "trimStart (\(NumberText.format(trimStart)) s) is at or past the end of the audio (\(NumberText.format(duration)) s)",
                        at: p.node("trimStart"), path: p.path("trimStart"))
                    return nil
                }
            } catch {
                context.error(
                    "cannot read audio from '\(url.lastPathComponent)': \(error)", at: p.node("path"),
                    path: p.path("path"))
                return nil
            }
        }
        return AudioTrack(
            path: url, offset: constant("offset"), trimStart: trimStart, trimEnd: trimEnd,
            volume: constant("volume"), fadeIn: constant("fadeIn"), fadeOut: constant("fadeOut"))
    }
}
