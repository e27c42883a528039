import Foundation

/// Collects every problem found while decoding, so a user sees all mistakes in one run instead
/// of fixing them one at a time. Decoders report and carry on with a placeholder value.
public final class DecodeContext {
    public let file: String
    public let baseDirectory: URL
    public private(set) var diagnostics: [Diagnostic] = []
    /// Helpers from outside the model that layer kinds may need while decoding (an image decoder).
    public let services: DecodeServices
    /// The output's duration in seconds once the output has decoded, so that times which must
    /// lie on the timeline (animation triggers) can be checked; nil skips that check.
    public var timelineDuration: Double?
    /// The frame's size in layout pixels, once `output` has decoded: positions far outside it
    /// are suspect.
    public var frameSize: (width: Double, height: Double)?
    /// The final value of each job variable (after `--set` / batch overrides), as text.
    public internal(set) var variables: [String: String] = [:]
    /// Paths of `{"var": …}` references that named no variable: the decoder's own complaints
    /// about what is left there would only repeat that error.
    var unresolvedReferences: Set<String> = []
    /// Date, time and extra names for `{…}` in the output path.
    public var outputTemplate = OutputTemplate()
    /// The sizes the job may ask for; decoders refuse more before allocating it.
    public var limits = ResourceLimits() {
        didSet { memory = MemoryBudget(limits: limits) }
    }
    /// The job's estimated memory, charged by decoders before they allocate.
    public private(set) var memory = MemoryBudget(limits: ResourceLimits())
    /// Where the job may read and write.
    public var pathRules = PathRules()
    /// `JobLoadOptions.interruption`; once it answers, no further layer is decoded.
    public var interruption: (@Sendable () -> Int32?)?
    var interruptedBy: Int32?
    /// Files the job reads, in the order they were resolved.
    public internal(set) var inputFiles: [URL] = []
    /// The frame inputs of the layers being decoded, innermost last (`FrameInputs`).
    var frameInputCollectors: [FrameInputCollector] = []
    /// What was recorded outside any layer (the camera, the soundtrack's files).
    public internal(set) var jobFrameInputs = FrameInputs()
    /// The output's `path` node, for diagnostics about the destination found after decoding.
    var outputPathNode: (node: JSONNode?, path: JSONPath)?
    /// The variables whose values the output path was built from, named when it is refused.
    var outputPathVariables: [String] = []
    /// The registered effects, for the effect stages of property mappings (nil: none can be written).
    public internal(set) var effects: EffectDecoder?
    /// The job's soundtrack, decoded before the layers, for values driven by it.
    public var soundtrack: Soundtrack?
    /// Analyses of the soundtrack made so far, shared by the values that read them.
    var audioAnalyses: [AudioAnalysisKey: [Float]] = [:]
    var audioAnalysisPasses = 0
    /// The sound of video clips, placed as the clips are, joined to the soundtrack after the layers.
    public internal(set) var clipSounds: [AudioTrack] = []
    /// `appear` of each layer being decoded, outermost first (inherited when a layer has none).
    private var layerStarts: [Double] = []
    /// What nested compositions are decoded with, shared by every document of the load.
    var compositions: CompositionLibrary?
    /// This document's `compositions` object (inline compositions its layers may play).
    var inlineCompositions: JSONNode?
    /// The real path of the file this document is (the job's own, or a composition file's).
    var documentIdentity: String?
    /// The real path of the job's own file, which no composition inside it may play.
    var jobIdentity: String?
    /// The compositions being played around this document, outermost first.
    var compositionChain: [CompositionLink] = []

    public init(file: String, baseDirectory: URL, services: DecodeServices = DecodeServices()) {
        self.file = file
        self.baseDirectory = baseDirectory
        self.services = services
    }

    public var hasErrors: Bool { !diagnostics.isEmpty }

    /// The context of a document played inside this one: its own file, folder and diagnostics,
    /// with this job's limits, rules, layer count and one memory budget (every nested layer is
    /// charged to the job that plays it).
    func nested(file: String, baseDirectory: URL) -> DecodeContext {
        let child = DecodeContext(file: file, baseDirectory: baseDirectory, services: services)
        child.limits = limits
        child.memory = memory
        child.pathRules = pathRules
        child.interruption = interruption
        child.interruptedBy = interruptedBy
        child.outputTemplate = outputTemplate
        child.layersSeen = layersSeen
        // The nesting limit bounds the whole tree: a played document starts at the depth of the
        // layer that plays it, not at the top again.
        child.outerDepth = layerDepth
        child.compositions = compositions
        child.jobIdentity = jobIdentity
        return child
    }

    /// Takes back what decoding a nested document found.
    func absorb(_ child: DecodeContext) {
        diagnostics += child.diagnostics
        inputFiles += child.inputFiles
        layersSeen = child.layersSeen
        interruptedBy = child.interruptedBy ?? interruptedBy
    }

    /// Where `"time": "layer"` counts from for values decoded now: the start of the innermost
    /// layer being decoded, 0 outside any layer (global time).
    public var layerStart: Double { layerStarts.last ?? 0 }

    /// How many layers are being decoded inside one another now (0 at the top level), the
    /// layers of the documents that play this one included.
    var layerDepth: Int { outerDepth + layerStarts.count }
    /// The depth of the layer that plays this document (0 for the job itself).
    private var outerDepth = 0
    /// Layers met so far, children included, against the `layers` limit.
    var layersSeen = 0

    /// Runs `body` (the decoding of one layer's values, effects and children) with that layer's
    /// start: its `appear`, or the enclosing layer's start when it has none.
    public func decodingLayer<Result>(appearingAt appear: Double?, _ body: () -> Result) -> Result {
        layerStarts.append(appear ?? layerStart)
        defer { layerStarts.removeLast() }
        return body()
    }

    public func error(_ message: String, at node: JSONNode?, path: JSONPath) {
        error(message, location: node?.location, path: path)
    }

    public func error(_ message: String, location: SourceLocation?, path: JSONPath) {
        if !unresolvedReferences.isEmpty, isInsideUnresolvedReference(path) { return }
        diagnostics.append(Diagnostic(file: file, path: path, location: location, message: message))
    }

    private func isInsideUnresolvedReference(_ path: JSONPath) -> Bool {
        let text = path.description
        return unresolvedReferences.contains {
            text == $0 || text.hasPrefix($0 + ".") || text.hasPrefix($0 + "[")
        }
    }

    /// A file the job names does not exist.
    public func missingInput(_ message: String, at node: JSONNode?, path: JSONPath) {
        diagnostics.append(
            Diagnostic(
                file: file, path: path, location: node?.location, message: message, isMissingInput: true))
    }

    /// A file the job names may not be read (outside the roots, or not a regular file).
    public func refusedInput(_ message: String, at node: JSONNode?, path: JSONPath) {
        diagnostics.append(
            Diagnostic(
                file: file, path: path, location: node?.location, message: message, isRefusedInput: true))
    }

    /// Resolves a path written in the job relative to the job file's directory, so a job renders
    /// the same regardless of the working directory it is launched from.
    public func resolvePath(_ relative: String) -> URL {
        if relative.hasPrefix("/") { return URL(fileURLWithPath: relative).standardizedFileURL }
        return baseDirectory.appendingPathComponent(relative).standardizedFileURL
    }

    /// An output path relative to the job's directory: its directory resolved, its final name
    /// as written (`OutputLocation`), never the target of a link planted at that name.
    public func resolveOutputPath(_ relative: String) -> URL {
        OutputLocation(relative, relativeTo: baseDirectory.path).url
    }
}
