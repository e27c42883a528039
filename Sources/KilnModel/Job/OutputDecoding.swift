import Foundation

/// Decodes the `"output"` object. Plain keys go through a parameter table; `fps`, `duration` and
/// `gop` depend on each other and are decoded by hand.
enum OutputDecoding {
    static let table = ParameterTable([
        Parameter(
            "path", .string, default: .string(""),
            defaultDescription:
                "the job file's name with .mp4, beside the job (jobs/intro.json → jobs/intro.mp4)",
            help:
                "output file, relative to the job file's directory, or absolute; may hold {job}, {date}, {time}, "
                + "{schedule} and variables (see Output path templates)"),
        Parameter(
            "width", .integer(OutputSettings.dimensionRange), help: "frame width in pixels; even (yuv420p)"),
        Parameter(
            "height", .integer(OutputSettings.dimensionRange), help: "frame height in pixels; even (yuv420p)"),
        Parameter(
            "crf", .constantNumber(OutputSettings.crfRange), default: .number(18),
            help: "x264 constant rate factor: lower is better quality and larger files; a constant"),
        Parameter(
            "preset", .choice(OutputSettings.presets), default: .string("medium"),
            help: "x264 speed/size trade-off: slower presets make smaller files of the same quality"),
    ])
    /// The keys decoded by hand, described for the docs; `handledKeys` comes from this list so a
    /// new hand-decoded key cannot be missing from them.
    static let handledParameters: [Parameter] = [
        Parameter(
            "fps", .structured("number or string", schema: FrameRateDecoding.schema),
            help:
                "frames per second, 0 < fps ≤ \(OutputSettings.maximumFrameRate): an integer, 23.976, 29.97 or "
                + "59.94 (exactly n/1001), another decimal (rounded to thousandths) or \"numerator/denominator\""
        ),
        Parameter(
            "duration", .structured("number or object", schema: DurationDecoding.schema),
            help:
                "seconds, > 0, or {\"seconds\": s} or {\"frames\": n}; at most 24 hours and "
                + "\(OutputSettings.maximumFrameCount) frames"),
        Parameter(
            // The default depends on fps; the value here only marks the key optional.
            "gop", .integer(OutputSettings.gopRange), default: .integer(60),
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

        for dimension in ["width", "height"] {
            let value = parameters.integer(dimension)
            if parameters.isPresent(dimension), value % 2 != 0 {
                context.error(
                    "must be even (yuv420p needs even dimensions), got \(value)",
                    at: parameters.node(dimension), path: parameters.path(dimension))
            }
        }

        var outputURL = context.resolvePath(defaultOutputName(for: jobFile))
        context.outputPathNode = (parameters.node("path") ?? node, parameters.path("path"))
        if parameters.isPresent("path") {
            let written = parameters.string("path")
            // `${name}` and `{"var": …}` are already replaced here, so a value is recognised by its
            // text (short values would match by chance); `{name}` is still written.
            context.outputPathVariables = context.variables.filter { name, value in
                written.contains("{\(name)}") || (value.count >= 3 && written.contains(value))
            }.keys.sorted()
            if written.isEmpty {
                context.error(
                    "output path must not be empty", at: parameters.node("path"),
                    path: parameters.path("path"))
            } else if written.contains("{") {
                let values = context.outputTemplate.values(jobFile: jobFile, variables: context.variables)
                let expanded = JobVariables.interpolate(written, opening: "{", values: values) { name in
                    context.error(
                        "unknown name '{\(name)}' in the output path (known: job, date, time, "
                            + "\((values.keys.filter { !["job", "date", "time"].contains($0) }.sorted() + ["variables"]).joined(separator: ", ")))",
                        at: parameters.node("path"), path: parameters.path("path"))
                }
                outputURL = context.resolvePath(expanded)
            } else {
                outputURL = context.resolvePath(written)
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
        if let gopNode = node["gop"] {
            gop = ValueDecoding.decodeInteger(
                gopNode, path: path.key("gop"), range: OutputSettings.gopRange, context: context)
        }

        guard context.diagnostics.count == before, let rate, let frameCount else { return nil }
        let width = parameters.integer("width"), height = parameters.integer("height")
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
        return OutputSettings(
            path: outputURL, width: parameters.integer("width"), height: parameters.integer("height"),
            frameRate: rate, frameCount: frameCount, crf: parameters.number("crf").value(at: 0),
            preset: parameters.string("preset"), gop: gop)
    }

    /// Refuses a destination the job must not write (`PathRules.outputProblem`): checked once
    /// every input is known, since the output must not be one of them.
    static func checkDestination(_ url: URL, jobFile: String, context: DecodeContext) {
        guard
            let problem = context.pathRules.outputProblem(
                url, jobFile: jobFile, inputs: context.inputFiles)
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

    /// `jobs/intro.json` renders to `jobs/intro.mp4` unless told otherwise.
    static func defaultOutputName(for jobFile: String) -> String {
        let base = URL(fileURLWithPath: jobFile).deletingPathExtension().lastPathComponent
        return (base.isEmpty || base == "/" ? "output" : base) + ".mp4"
    }
}
