import Foundation

/// Reads and validates a job file, reporting every problem at once.
public enum JobLoader {
    /// Job files are small; the cap (the default json-bytes limit) keeps a mistaken or hostile
    /// input from exhausting memory.
    public static let maximumFileSize = Int(ResourceLimits.Name.jsonBytes.defaultValue)
    enum Key {
        static let schema = ParameterKey<String>("$schema")
        static let kiln = ParameterKey<JSONNode?>("kiln")
        static let output = ParameterKey<JSONNode?>("output")
        static let layers = ParameterKey<JSONNode?>("layers")
        static let camera = ParameterKey<JSONNode?>("camera")
        static let audio = ParameterKey<JSONNode?>("audio")
        static let variables = ParameterKey<JSONNode?>("variables")
        static let compositions = ParameterKey<JSONNode?>("compositions")
        static let comment = ParameterKey<JSONNode?>("comment")
    }

    /// The keys of a job, decoded by hand (`JobDecoding`, `JobVariables`); described here for the
    /// schema, and `topLevelKeys` comes from this list so a new one cannot be missing from either.
    public static let topLevelParameters: [Parameter] = [
        Parameter(
            Key.schema, .string, default: .string(""), defaultDescription: "none",
            help: "the address of the job schema (docs/kiln-job.schema.json), for editors; ignored by Kiln"),
        Parameter(
            Key.kiln,
            .structured(
                "number",
                schema: .anyOf([
                    JSONSchema([.init("const", .number(Double(Job.formatVersion)))]), ValueSchema.variable,
                ])),
            help: "the job format version: \(Job.formatVersion)"),
        Parameter(
            Key.output, .structured("object", schema: ValueSchema.object(JobFormatTables.output)),
            help: "the output file and its encoding settings"),
        Parameter(
            Key.layers, .structured("array of layers", schema: .array(of: .reference(.layer))),
            help: "layers painted bottom to top in array order; may be empty (black frames)"),
        Parameter(
            Key.camera, .structured(Camera.parameterShape, schema: ValueSchema.object(Camera.table)),
            default: .string("none"),
            help: "a camera over the layers: the point it looks at, its zoom and rotation, animatable"),
        Parameter(
            Key.audio, .structured("object or array of tracks", schema: AudioDecoding.schema),
            default: .string("none"),
            help:
                "the soundtrack: one track, a list of tracks, or {\"tracks\": […], \"loudness\": LUFS}; without it the MP4 has no audio stream"
        ),
        Parameter(
            Key.variables, .structured("object of declarations", schema: JobVariables.schema),
            default: .string("none"),
            help:
                "named values with defaults, set from the command line or a batch: {\"var\": name} and ${name} use them"
        ),
        Parameter(
            Key.compositions,
            .structured(
                "object of compositions",
                schema: JSONSchema.type("object")
                    .with("propertyNames", JSONSchema.pattern("^[A-Za-z_][A-Za-z0-9_]{0,63}$"))
                    .with("additionalProperties", ValueSchema.object(JobDecoding.inlineTable))),
            default: .string("none"),
            help:
                "named compositions that composition layers play: {\"name\": {\"size\", \"duration\", \"layers\", \"variables\"}}"
        ),
        Parameter(
            Key.comment, .structured("any", schema: .anything), default: .string("none"),
            help: "ignored; for notes"),
    ]
    public static let topLevelKeys = topLevelParameters.map(\.name)

    public static func load(
        file: String, kinds: [LayerKind], effects: [EffectKind] = [], transitions: [TransitionKind] = [],
        services: DecodeServices = DecodeServices(), options: JobLoadOptions = JobLoadOptions()
    ) throws(JobLoadError) -> Job {
        let url = URL(fileURLWithPath: file)
        let bytes = try readBytes(file: file, limits: options.limits)
        return try decode(
            bytes: bytes, file: file, baseDirectory: url.deletingLastPathComponent().standardizedFileURL,
            kinds: kinds, effects: effects, transitions: transitions, services: services, options: options)
    }

    /// The job file's bytes, checked for existence and size (what a queue snapshots).
    public static func readBytes(file: String, limits: ResourceLimits = ResourceLimits()) throws(JobLoadError)
        -> [UInt8]
    {
        try read(URL(fileURLWithPath: file), file: file, limits: limits)
    }

    public static func decode(
        bytes: [UInt8], file: String, baseDirectory: URL, kinds: [LayerKind], effects: [EffectKind] = [],
        transitions: [TransitionKind] = [], services: DecodeServices = DecodeServices(),
        options: JobLoadOptions = JobLoadOptions()
    ) throws(JobLoadError) -> Job {
        if let problem = tooLarge(size: bytes.count, limits: options.limits) {
            throw .invalid([Diagnostic(file: file, path: .root, location: nil, message: problem)])
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes, limits: options.limits)
        } catch {
            throw .invalid([
                Diagnostic(file: file, path: .root, location: error.location, message: error.message)
            ])
        }
        func decoding(estimatesOnly: Bool, reusing earlier: DecodeContext? = nil) -> (DecodeContext, Job?) {
            let context = DecodeContext(file: file, baseDirectory: baseDirectory, services: services)
            // The soundtrack's analyses are made once, by the estimating pass, and the passes it
            // made still count against the job's cap.
            if let earlier {
                context.audioAnalyses = earlier.audioAnalyses
                context.audioAnalysisPasses = earlier.audioAnalysisPasses
            }
            context.limits = options.limits
            context.memory.estimatesOnly = estimatesOnly
            context.outputTemplate = options.outputTemplate
            context.pathRules = options.pathRules
            context.interruption = options.interruption
            let (declarations, values) = JobVariables.resolve(
                root, overrides: options.variables, context: context)
            context.variables = values
            let substituted = JobVariables.substitute(
                root, path: .root, declarations: declarations, values: values, context: context)
            let job = JobDecoding(context: context, kinds: kinds, effects: effects, transitions: transitions)
                .decode(substituted)
            return (context, job)
        }
        // The whole job's memory is estimated before anything it charges is allocated; its
        // other problems are reported by the real load.
        let (estimate, _) = decoding(estimatesOnly: true)
        if estimate.memory.isOver, let largest = estimate.memory.largest.first {
            throw .invalid([
                Diagnostic(file: file, path: largest.path, location: nil, message: estimate.memory.message)
            ])
        }
        var (context, job) = decoding(estimatesOnly: false, reusing: estimate)
        if let decoded = job {
            job?.inputFiles = context.inputFiles
            job?.frameInputs = context.jobFrameInputs
            job?.compositionFiles = context.compositions?.files ?? []
            OutputDecoding.checkDestination(
                decoded.output.path, folder: decoded.output.format == .pngSequence, jobFile: file,
                context: context)
        }
        guard let job, !context.hasErrors else {
            throw .invalid(sortedByLocation(context.diagnostics, file: file))
        }
        return job
    }

    private static func read(_ url: URL, file: String, limits: ResourceLimits) throws(JobLoadError) -> [UInt8]
    {
        switch RegularFileReader.read(path: url.path, limit: limits.count(.jsonBytes)) {
        case .success(let bytes): return bytes
        case .failure(.missing): throw .fileMissing(file: file, reason: "no such file")
        case .failure(.notRegular(let kind)):
            throw .fileMissing(file: file, reason: "is \(kind), not a job file")
        case .failure(.tooLarge(let size)):
            throw .invalid([
                Diagnostic(
                    file: file, path: .root, location: nil,
                    message: tooLarge(size: size, limits: limits) ?? "the job file is too large")
            ])
        case .failure(.unreadable(let reason)):
            throw .fileMissing(file: file, reason: "cannot be read (\(reason))")
        }
    }

    private static func tooLarge(size: Int, limits: ResourceLimits) -> String? {
        limits.violation(.jsonBytes, size, "the job file's size in bytes")
    }

    /// Document order reads best; decoders report in table order. Stable, so problems at the
    /// same place keep their logical order.
    /// The job's own file first, then each composition file's problems together, in the order
    /// they were played.
    private static func sortedByLocation(_ diagnostics: [Diagnostic], file: String) -> [Diagnostic] {
        var groups: [String: Int] = [file: -1]
        for diagnostic in diagnostics where groups[diagnostic.file] == nil {
            groups[diagnostic.file] = groups.count
        }
        return diagnostics.enumerated().sorted { lhs, rhs in
            let lg = groups[lhs.element.file] ?? 0, rg = groups[rhs.element.file] ?? 0
            if lg != rg { return lg < rg }
            return switch (lhs.element.location, rhs.element.location) {
            case (let l?, let r?) where l != r: l < r
            case (nil, .some): false
            case (.some, nil): true
            default: lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}
