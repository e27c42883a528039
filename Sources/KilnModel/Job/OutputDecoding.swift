import Foundation

/// Decodes the `"output"` object. Plain keys go through a parameter table; `fps`, `duration` and
/// `gop` depend on each other and are decoded by hand.
enum OutputDecoding {
    enum Key {
        static let path = ParameterKey<String>("path")
        static let format = ParameterKey<String>("format")
        static let width = ParameterKey<Int>("width")
        static let height = ParameterKey<Int>("height")
        static let preset = ParameterKey<String>("preset")
        static let fps = ParameterKey<JSONNode?>("fps")
        static let duration = ParameterKey<JSONNode?>("duration")
        static let crf = ParameterKey<Animated<Double>>("crf")
        static let gop = ParameterKey<Int>("gop")
    }

    static let table = ParameterTable([
        Parameter(
            Key.path, .string, default: .string(""),
            defaultDescription:
                "the job file's name with the format's extension, beside the job (jobs/intro.json → "
                + "jobs/intro.mp4; a png-sequence: jobs/intro-frames/)",
            help:
                "output file, relative to the job file's directory, or absolute; may hold {job}, {date}, {time}, "
                + "{schedule} and variables (see Output path templates). For png-sequence, a folder (ending in /) "
                + "that gets frame_00001.png, frame_00002.png, …"),
        Parameter(
            Key.format, .choice(OutputFormat.names), default: .string(OutputFormat.h264.rawValue),
            defaultDescription:
                "from the path: .mp4 or .m4v h264, .webm vp9, .mov prores4444, .gif gif, .webp webp, a path "
                + "ending in / png-sequence, anything else h264",
            help:
                "h264 (libx264, MP4), hevc (libx265, MP4), vp9 (libvpx, WebM, Opus audio), prores4444 (prores_ks, "
                + "MOV, 10-bit 4:4:4 with alpha), gif (generated palette), webp (animated, lossy, with alpha) or "
                + "png-sequence (a folder of numbered RGBA PNGs). A path whose extension names another format is "
                + "an error; gif, webp and png-sequence carry no audio, so a job with `audio` is refused (video clips play silent)"
        ),
        Parameter(
            Key.width, .integer(OutputSettings.dimensionRange),
            help: "frame width in pixels; even for h264 and hevc"),
        Parameter(
            Key.height, .integer(OutputSettings.dimensionRange),
            help: "frame height in pixels; even for h264 and hevc"),
        Parameter(
            Key.preset, .string, default: .string("medium"),
            defaultDescription: "medium for h264 and hevc, good for vp9",
            help:
                "speed/size trade-off: for h264 and hevc one of ultrafast, superfast, veryfast, faster, fast, "
                + "medium, slow, slower, veryslow, placebo (slower presets make smaller files of the same "
                + "quality); for vp9 one of realtime, good, best (libvpx deadline); the other formats have "
                + "none and refuse it"),
    ])
    /// The keys decoded by hand, described for the docs; `handledKeys` comes from this list so a
    /// new hand-decoded key cannot be missing from them.
    static let handledParameters: [Parameter] = [
        Parameter(
            // Decoded by hand: its range is the format's.
            Key.crf, .constantNumber(OutputSettings.crfRange), default: .number(18),
            defaultDescription: "18 for h264 and hevc, 31 for vp9",
            help:
                "constant rate factor, lower is better quality and larger files; a constant: 0…51 for h264 "
                + "(x264) and hevc (x265), 0…63 for vp9 (libvpx); the other formats have none and refuse it"),
        Parameter(
            Key.fps, .structured("number or string", schema: FrameRateDecoding.schema),
            help:
                "frames per second, 0 < fps ≤ \(OutputSettings.maximumFrameRate): an integer, 23.976, 29.97 or "
                + "59.94 (exactly n/1001), another decimal (rounded to thousandths) or \"numerator/denominator\""
        ),
        Parameter(
            Key.duration, .structured("number or object", schema: DurationDecoding.schema),
            help:
                "seconds, > 0, or {\"seconds\": s} or {\"frames\": n}; at most 24 hours and "
                + "\(OutputSettings.maximumFrameCount) frames"),
        Parameter(
            // The default depends on fps; the value here only marks the key optional.
            Key.gop, .integer(OutputSettings.gopRange), default: .integer(60),
            defaultDescription: "2 seconds of frames, round(2 × fps): 60 at 30 fps",
            help: "frames between keyframes"),
    ]
    static let handledKeys = Set(handledParameters.map(\.name))

    static func decode(
        _ node: JSONNode, path: JSONPath, jobFile: String, context: DecodeContext
    ) -> OutputSettings? {
        let before = context.diagnostics.count
        let parameters = table.decode(node, path: path, context: context, extraKeys: handledKeys)
        guard node.members != nil else { return nil }

        let writtenPath = parameters.isPresent(Key.path) ? parameters[Key.path] : nil
        let format = decodeFormat(parameters, writtenPath: writtenPath, context: context)
        for dimension in [Key.width, Key.height] where format.needsEvenSides {
            let value = parameters[dimension]
            if parameters.isPresent(dimension), value % 2 != 0 {
                context.error(
                    "must be even for \(format.rawValue) (its 4:2:0 colour comes in 2×2 blocks), got \(value); "
                        + "\(OutputFormat.oddSideFormats.joined(separator: ", ")) take odd sizes",
                    at: parameters.node(dimension), path: parameters.path(dimension))
            }
        }
        let crf = decodeCRF(node, path: path, format: format, context: context)
        let preset = decodePreset(parameters, format: format, context: context)

        var outputURL = context.resolveOutputPath(defaultOutputName(for: jobFile, format: format))
        context.outputPathNode = (parameters.node(Key.path) ?? node, parameters.path(Key.path))
        if parameters.isPresent(Key.path) {
            let written = parameters[Key.path]
            // `${name}` and `{"var": …}` are already replaced here, so a value is recognised by its
            // text (short values would match by chance); `{name}` is still written.
            context.outputPathVariables = context.variables.filter { name, value in
                written.contains("{\(name)}") || (value.count >= 3 && written.contains(value))
            }.keys.sorted()
            if written.isEmpty {
                context.error(
                    "output path must not be empty", at: parameters.node(Key.path),
                    path: parameters.path(Key.path))
            } else if written.contains("{") {
                let values = context.outputTemplate.values(jobFile: jobFile, variables: context.variables)
                let expanded = JobVariables.interpolate(written, opening: "{", values: values) { name in
                    context.error(
                        "unknown name '{\(name)}' in the output path (known: job, date, time, "
                            + "\((values.keys.filter { !["job", "date", "time"].contains($0) }.sorted() + ["variables"]).joined(separator: ", ")))",
                        at: parameters.node(Key.path), path: parameters.path(Key.path))
                }
                outputURL = context.resolveOutputPath(expanded)
            } else {
                outputURL = context.resolveOutputPath(written)
            }
        }

        var rate: Rational?
        if let fpsNode = node["fps"] {
            rate = FrameRateDecoding.decode(fpsNode, path: path.key("fps"), context: context)
        } else {
            context.error("missing required key 'fps'", at: node, path: path)
        }

        var frameCount: Int?
        if let durationNode = node["duration"] {
            let durationPath = path.key("duration")
            if let written = DurationDecoding.decode(durationNode, path: durationPath, context: context),
                let rate
            {
                frameCount = DurationDecoding.frameCount(
                    written, rate: rate, node: durationNode, path: durationPath, context: context)
            }
        } else {
            context.error("missing required key 'duration'", at: node, path: path)
        }

        var gop: Int?
        if let gopNode = node[Key.gop.name] {
            gop = ValueDecoding.decodeInteger(
                gopNode, path: path.key("gop"), range: OutputSettings.gopRange, context: context)
        }

        // The timeline's length is known whenever fps and duration are good, so values checked
        // against it (a ripple trigger after the end) are reported with any other mistakes.
        if let rate, let frameCount, rate.numerator > 0 {
            context.timelineDuration = Double(frameCount) * Double(rate.denominator) / Double(rate.numerator)
        }
        guard context.diagnostics.count == before, let rate, let frameCount else { return nil }
        let width = parameters[Key.width], height = parameters[Key.height]
        let limits = context.limits
        let problems = [
            limits.violation(.framePixels, width * height, "the frame's size in pixels (\(width)×\(height))"),
            limits.violation(.frames, frameCount, "the number of frames"),
            limits.violation(
                .pixelFrames, Double(width * height) * Double(frameCount),
                "width × height × frames (\(width)×\(height)×\(frameCount))"),
        ]
        for problem in problems.compactMap({ $0 }) { context.error(problem, at: node, path: path) }
        guard context.diagnostics.count == before else { return nil }
        context.frameSize = (Double(width), Double(height))
        var settings = OutputSettings(
            path: outputURL, width: parameters[Key.width], height: parameters[Key.height],
            frameRate: rate, frameCount: frameCount, crf: crf, preset: preset, gop: gop, format: format,
            formatIsNamed: parameters.isPresent(Key.format))
        settings.crfIsNamed = node[Key.crf.name] != nil
        settings.presetIsNamed = parameters.isPresent(Key.preset)
        return settings
    }

    /// `format` as written, else what the path implies, else H.264; a named format must suit
    /// the path's extension.
    private static func decodeFormat(
        _ parameters: DecodedParameters, writtenPath: String?, context: DecodeContext
    ) -> OutputFormat {
        guard parameters.isPresent(Key.format), let named = OutputFormat(rawValue: parameters[Key.format])
        else {
            return writtenPath.flatMap(OutputFormat.inferred(fromPath:)) ?? .h264
        }
        if let writtenPath, let mismatch = named.pathMismatch(writtenPath) {
            context.error(mismatch, at: parameters.node(Key.format), path: parameters.path(Key.format))
        }
        return named
    }

    private static func decodeCRF(
        _ output: JSONNode, path: JSONPath, format: OutputFormat, context: DecodeContext
    )
        -> Double
    {
        guard let node = output["crf"] else { return format.defaultCRF }
        guard let range = format.crfRange else {
            context.error(
                "format \(format.rawValue) has no crf (only h264, hevc and vp9 do); remove it", at: node,
                path: path.key("crf"))
            return format.defaultCRF
        }
        return ValueDecoding.constantNumber(node, path: path.key("crf"), range: range, context: context)
            ?? format.defaultCRF
    }

    private static func decodePreset(
        _ parameters: DecodedParameters, format: OutputFormat, context: DecodeContext
    ) -> String {
        guard parameters.isPresent(Key.preset) else { return format.defaultPreset }
        let preset = parameters[Key.preset]
        guard let presets = format.presets else {
            context.error(
                "format \(format.rawValue) has no preset (only h264, hevc and vp9 do); remove it",
                at: parameters.node(Key.preset), path: parameters.path(Key.preset))
            return preset
        }
        if !presets.contains(preset) {
            context.error(
                "\(format.rawValue) has no preset '\(preset)'; expected one of \(presets.joined(separator: ", "))",
                at: parameters.node(Key.preset), path: parameters.path(Key.preset))
        }
        return preset
    }

    /// Refuses a destination the job must not write (`PathRules.outputProblem`): checked once
    /// every input is known, since the output must not be one of them.
    static func checkDestination(_ url: URL, folder: Bool, jobFile: String, context: DecodeContext) {
        guard
            let problem = context.pathRules.outputProblem(
                url, jobFile: jobFile, inputs: context.inputFiles, folder: folder)
        else { return }
        let from =
            context.outputPathVariables.isEmpty
            ? ""
            : " (the path takes variable\(context.outputPathVariables.count == 1 ? "" : "s") "
                + context.outputPathVariables.map { "'\($0)'" }.joined(separator: ", ") + ")"
        context.error(
            "refused: \(problem)\(from)", at: context.outputPathNode?.node,
            path: context.outputPathNode?.path ?? JSONPath.root.key("output").key("path"))
    }

    /// `jobs/intro.json` renders to `jobs/intro.mp4` (or the format's extension, or the folder
    /// `jobs/intro-frames/`) unless told otherwise.
    static func defaultOutputName(for jobFile: String, format: OutputFormat = .h264) -> String {
        let written = URL(fileURLWithPath: jobFile).deletingPathExtension().lastPathComponent
        let base = written.isEmpty || written == "/" ? "output" : written
        return format == .pngSequence ? base + "-frames/" : base + "." + format.fileExtension
    }
}
