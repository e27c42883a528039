import Foundation

/// What a caller adds to a job file: variable values (`--set`, batch rows) and the date and names
/// its output path template expands with.
public struct JobLoadOptions: Sendable {
    public var variables: [String: String]
    public var outputTemplate: OutputTemplate
    /// Where the job may read and write (`PathRules`); by default anywhere but the queue.
    public var pathRules: PathRules

    public init(
        variables: [String: String] = [:], outputTemplate: OutputTemplate = OutputTemplate(),
        pathRules: PathRules = PathRules()
    ) {
        self.variables = variables
        self.outputTemplate = outputTemplate
        self.pathRules = pathRules
    }
}

/// Reads and validates a job file, reporting every problem at once.
public enum JobLoader {
    /// Job files are small; the cap keeps a mistaken or hostile input from exhausting memory.
    public static let maximumFileSize = 64 * 1024 * 1024
    public static let topLevelKeys = ["kiln", "output", "layers", "audio", "variables", "comment"]

    public static func load(
        file: String, kinds: [LayerKind], effects: [EffectKind] = [],
        services: DecodeServices = DecodeServices(), options: JobLoadOptions = JobLoadOptions()
    ) throws(JobLoadError) -> Job {
        let url = URL(fileURLWithPath: file)
        let bytes = try readBytes(file: file)
        return try decode(
            bytes: bytes, file: file, baseDirectory: url.deletingLastPathComponent().standardizedFileURL,
            kinds: kinds, effects: effects, services: services, options: options)
    }

    /// The job file's bytes, checked for existence and size (what a queue snapshots).
    public static func readBytes(file: String) throws(JobLoadError) -> [UInt8] {
        try read(URL(fileURLWithPath: file), file: file)
    }

    public static func decode(
        bytes: [UInt8], file: String, baseDirectory: URL, kinds: [LayerKind], effects: [EffectKind] = [],
        services: DecodeServices = DecodeServices(), options: JobLoadOptions = JobLoadOptions()
    ) throws(JobLoadError) -> Job {
        guard bytes.count <= maximumFileSize else {
            throw .invalid([tooLarge(file: file, size: bytes.count)])
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .invalid([
                Diagnostic(file: file, path: .root, location: error.location, message: error.message)
            ])
        }
        let context = DecodeContext(file: file, baseDirectory: baseDirectory, services: services)
        context.outputTemplate = options.outputTemplate
        context.pathRules = options.pathRules
        let (declarations, values) = JobVariables.resolve(
            root, overrides: options.variables, context: context)
        context.variables = values
        let substituted = JobVariables.substitute(
            root, path: .root, declarations: declarations, values: values, context: context)
        var job = JobDecoding(context: context, kinds: kinds, effects: effects).decode(substituted)
        if let decoded = job {
            job?.inputFiles = context.inputFiles
            OutputDecoding.checkDestination(decoded.output.path, jobFile: file, context: context)
        }
        guard let job, !context.hasErrors else {
            throw .invalid(sortedByLocation(context.diagnostics))
        }
        return job
    }

    private static func read(_ url: URL, file: String) throws(JobLoadError) -> [UInt8] {
        switch RegularFileReader.read(path: url.path, limit: maximumFileSize) {
        case .success(let bytes): return bytes
        case .failure(.missing): throw .fileMissing(file: file, reason: "no such file")
        case .failure(.notRegular(let kind)):
            throw .fileMissing(file: file, reason: "is \(kind), not a job file")
        case .failure(.tooLarge(let size)): throw .invalid([tooLarge(file: file, size: size)])
        case .failure(.unreadable(let reason)):
            throw .fileMissing(file: file, reason: "cannot be read (\(reason))")
        }
    }

    private static func tooLarge(file: String, size: Int) -> Diagnostic {
        Diagnostic(
            file: file, path: .root, location: nil,
            message: "job file is \(size) bytes; the limit is \(maximumFileSize) bytes (64 MiB)")
    }

    /// Document order reads best; decoders report in table order. Stable, so problems at the
    /// same place keep their logical order.
    private static func sortedByLocation(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            switch (lhs.element.location, rhs.element.location) {
            case (let l?, let r?) where l != r: l < r
            case (nil, .some): false
            case (.some, nil): true
            default: lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}
