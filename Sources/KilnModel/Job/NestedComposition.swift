import Foundation

/// A composition a layer plays: another job file's, or one defined under the job's
/// `compositions`; its layers decoded with the variables the layer passes in.
public struct DecodedComposition: Sendable {
    /// Its layout box: the job file's output width and height, or the inline `size`.
    public let size: SIMD2<Double>
    /// Seconds: the job file's output duration, or the inline `duration`.
    public let duration: Double
    public let layers: [LayerNode]
    public let camera: Camera?
}

/// Where a composition layer's composition comes from.
public enum CompositionSource: Sendable {
    /// A job file, resolved and confined as every asset is.
    case file(URL, written: String)
    /// A name under the document's `compositions`.
    case inline(String)
}

/// Content that holds layers decoded from another document (a composition): the loader makes
/// them the layer's children, so walks over the tree (offscreen counts, clips) see them.
public protocol NestedLayers: LayerContent {
    var nestedLayers: [LayerNode] { get }
}

/// One composition being played: what it is and the layer that plays it.
struct CompositionLink {
    /// The composition file's real path, or the document's followed by `#name`.
    let identity: String
    /// As messages name it: the file as written, or `compositions.name`.
    let name: String
    /// The document and JSON path of the layer that plays it.
    let file: String
    let path: JSONPath

    var text: String { "\(file) \(path) plays \(name)" }
}

/// A composition file's bytes as it was read for this load (its fingerprint).
public struct CompositionFile: Sendable, Equatable {
    public let url: URL
    public let bytes: [UInt8]
}

/// What every document of one load shares to decode compositions: the registry, and each
/// composition file read once, so every placement plays the same text and the fingerprint
/// covers exactly what was played.
final class CompositionLibrary {
    let kinds: [LayerKind]
    let effects: [EffectKind]
    let transitions: [TransitionKind]
    private(set) var files: [CompositionFile] = []
    private var parsed: [URL: Result<JSONNode, JSONSyntaxError>] = [:]

    /// Compositions inside compositions, deeper than this, are refused.
    static let maximumDepth = 8

    init(kinds: [LayerKind], effects: [EffectKind], transitions: [TransitionKind]) {
        self.kinds = kinds
        self.effects = effects
        self.transitions = transitions
    }

    /// The parsed file, read with the job's reader and limits the first time; nil when it cannot
    /// be read (reported at the layer).
    func document(
        _ url: URL, written: String, context: DecodeContext, node: JSONNode?, path: JSONPath
    ) -> Result<JSONNode, JSONSyntaxError>? {
        if let known = parsed[url] { return known }
        let limit = context.limits.count(.jsonBytes)
        let bytes: [UInt8]
        switch RegularFileReader.read(path: url.path, limit: limit) {
        case .success(let read): bytes = read
        case .failure(.missing):
            context.missingInput("file not found: \(written)", at: node, path: path)
            return nil
        case .failure(.notRegular(let kind)):
            context.refusedInput("refused to read '\(written)': it is \(kind)", at: node, path: path)
            return nil
        case .failure(.tooLarge(let size)):
            context.error(
                context.limits.violation(.jsonBytes, size, "the size in bytes of \(written)")
                    ?? "\(written) is too large", at: node, path: path)
            return nil
        case .failure(.unreadable(let reason)):
            context.error("cannot read \(written) (\(reason))", at: node, path: path)
            return nil
        }
        files.append(CompositionFile(url: url, bytes: bytes))
        let result: Result<JSONNode, JSONSyntaxError>
        do {
            result = .success(try JSONParser.parse(bytes, limits: context.limits))
        } catch {
            result = .failure(error)
        }
        parsed[url] = result
        return result
    }
}

extension DecodeContext {
    /// The composition `source` names, with `variables` (the playing layer's object) passed in:
    /// decoded in a context of its own (its file's name and folder in messages and paths), with
    /// this job's limits and memory budget. Cycles and nesting deeper than
    /// `CompositionLibrary.maximumDepth` are refused at `path`, naming every layer on the way.
    public func decodeComposition(
        _ source: CompositionSource, variables: JSONNode?, variablesPath: JSONPath, at node: JSONNode?,
        path: JSONPath
    ) -> DecodedComposition? {
        guard let library = compositions else {
            error("compositions need the job loader", at: node, path: path)
            return nil
        }
        if jobIdentity == nil { jobIdentity = rootIdentity }
        let document = documentIdentity ?? rootIdentity
        let link: CompositionLink
        switch source {
        case .file(let url, let written):
            link = CompositionLink(
                identity: RealPath.resolve(url.path), name: written, file: file, path: path)
        case .inline(let name):
            link = CompositionLink(
                identity: document + "#" + name, name: "compositions.\(name)", file: file, path: path)
        }
        let chain = compositionChain + [link]
        if link.identity == jobIdentity
            || compositionChain.contains(where: { $0.identity == link.identity })
        {
            // From the layer that first played it (the job itself: from the start).
            let first = compositionChain.firstIndex { $0.identity == link.identity }.map { $0 } ?? -1
            let loop = chain[(first + 1)...].map(\.text).joined(separator: ", then ")
            error(
                "composition cycle: \(loop), which is already playing it", at: node, path: path)
            return nil
        }
        if chain.count > CompositionLibrary.maximumDepth {
            error(
                "compositions nest more than \(CompositionLibrary.maximumDepth) deep: "
                    + chain.map(\.text).joined(separator: ", then "), at: node, path: path)
            return nil
        }
        let child: DecodeContext
        let decoded: DecodedComposition?
        switch source {
        case .file(let url, let written):
            guard
                let parsed = library.document(url, written: written, context: self, node: node, path: path)
            else { return nil }
            child = nested(
                file: Self.nestedFileName(written, in: file),
                baseDirectory: url.deletingLastPathComponent().standardizedFileURL)
            child.documentIdentity = link.identity
            child.compositionChain = chain
            switch parsed {
            case .success(let root):
                decoded = JobDecoding(
                    context: child, kinds: library.kinds, effects: library.effects,
                    transitions: library.transitions
                ).decodeCompositionFile(root, passing: variables, at: variablesPath, from: self)
            case .failure(let syntax):
                child.error(syntax.message, location: syntax.location, path: .root)
                decoded = nil
            }
        case .inline(let name):
            child = nested(file: file, baseDirectory: baseDirectory)
            child.documentIdentity = document
            child.inlineCompositions = inlineCompositions
            child.compositionChain = chain
            guard let definition = inlineCompositions?.members?.first(where: { $0.key == name }) else {
                let known = inlineCompositions?.members?.map(\.key) ?? []
                error(
                    "no composition '\(name)' under this document's 'compositions'"
                        + Suggestion.hint(for: name, among: known)
                        + (known.isEmpty
                            ? " (it defines none)" : " (defined: \(known.joined(separator: ", ")))"),
                    at: node, path: path)
                return nil
            }
            decoded = JobDecoding(
                context: child, kinds: library.kinds, effects: library.effects,
                transitions: library.transitions
            ).decodeInlineComposition(
                definition.value, path: JSONPath.root.key("compositions").key(name), passing: variables,
                at: variablesPath, from: self)
        }
        absorb(child)
        if !child.clipSounds.isEmpty {
            error(
                "video clips inside a composition play silent: give them \"muted\": true "
                    + "(their sound is not placed on this timeline)", at: node, path: path)
            return nil
        }
        return child.hasErrors ? nil : decoded
    }

    /// The job file's real path: what a composition file that plays it again is compared with.
    private var rootIdentity: String {
        RealPath.resolve(
            baseDirectory.appendingPathComponent(URL(fileURLWithPath: file).lastPathComponent).path)
    }

    /// A composition file as messages name it: beside the document that plays it.
    static func nestedFileName(_ written: String, in document: String) -> String {
        guard !written.hasPrefix("/") else { return written }
        let folder = (document as NSString).deletingLastPathComponent
        return folder.isEmpty ? written : (folder as NSString).appendingPathComponent(written)
    }

    /// The values a composition layer's `variables` object passes, checked against the
    /// composition's declarations here (in the document that writes them); the declarations'
    /// defaults for the rest.
    func passedVariables(
        _ node: JSONNode?, path: JSONPath, declarations: [String: VariableDeclaration],
        defaults: [String: String]
    ) -> [String: String] {
        var values = defaults
        guard let node else { return values }
        guard let members = node.members else {
            error("expected an object of variable values, got \(node.value.typeName)", at: node, path: path)
            return values
        }
        for member in members {
            let memberPath = path.key(member.key)
            let text: String
            switch member.value.value {
            case .string(let string): text = string
            case .number(let number): text = NumberText.format(number)
            default:
                error(
                    "expected a string or number, got \(member.value.value.typeName)", at: member.value,
                    path: memberPath)
                continue
            }
            guard let declaration = declarations[member.key] else {
                let known = declarations.keys.sorted()
                error(
                    "the composition has no variable '\(member.key)'"
                        + Suggestion.hint(for: member.key, among: known)
                        + (known.isEmpty
                            ? " (it declares none)" : " (declared: \(known.joined(separator: ", ")))"),
                    location: member.keyLocation, path: memberPath)
                continue
            }
            if let problem = JobVariables.check(text, as: declaration) {
                error(
                    "value '\(TerminalText.excerpt(text))' for variable '\(member.key)': \(problem)",
                    at: member.value, path: memberPath)
                continue
            }
            values[member.key] = text
        }
        return values
    }
}

extension JobDecoding {
    enum Key {
        static let size = ParameterKey<Animated<Point2>>("size")
        static let duration = ParameterKey<Animated<Double>>("duration")
        static let layers = ParameterKey<JSONNode?>("layers")
        static let variables = ParameterKey<JSONNode?>("variables")
        static let camera = ParameterKey<JSONNode?>("camera")
        static let comment = ParameterKey<JSONNode?>("comment")
    }

    /// The keys of an inline composition under `compositions`.
    static let inlineTable = ParameterTable([
        Parameter(
            Key.size, .point(1...16_384),
            help: "[width, height]: the composition's box, as a job's output size"
        ),
        Parameter(
            Key.duration, .constantNumber(0.001...86_400),
            help: "seconds it lasts, as a job's output duration"),
        Parameter(
            Key.layers, .structured("array of layers", schema: .array(of: .reference(.layer))),
            help: "its layers, bottom to top, timed from its own start"),
        Parameter(
            Key.variables, .structured("object of declarations", schema: JobVariables.schema),
            default: .string("none"),
            help: "its variables with defaults; the layers that play it pass values in"),
        Parameter(
            Key.camera, .structured(Camera.parameterShape, schema: ValueSchema.object(Camera.table)),
            default: .string("none"), help: "a camera over its layers"),
        Parameter(
            Key.comment, .structured("any", schema: .anything), default: .string("none"), help: "ignored"),
    ])

    /// The job's `compositions` object: kept for the layers that play them, unsubstituted (each
    /// composition's variables are its own).
    func readInlineCompositions(_ root: JSONNode) {
        guard let node = root["compositions"] else { return }
        let path = JSONPath.root.key("compositions")
        guard let members = node.members else {
            context.error(
                "expected an object of compositions, got \(node.value.typeName)", at: node, path: path)
            return
        }
        for member in members {
            if !JobVariables.isValidName(member.key) {
                context.error(
                    "composition names are letters, digits and _ (not starting with a digit), got '\(member.key)'",
                    location: member.keyLocation, path: path.key(member.key))
            }
        }
        context.inlineCompositions = node
    }

    /// A job file played as a composition: its output's size and duration, its layers and camera.
    /// Its output path is not written and its soundtrack would not be heard, so `audio` is refused.
    func decodeCompositionFile(
        _ root: JSONNode, passing variables: JSONNode?, at variablesPath: JSONPath, from parent: DecodeContext
    ) -> DecodedComposition? {
        guard root.members != nil else {
            context.error(
                "a composition file must be a job: a JSON object, got \(root.value.typeName)", at: root,
                path: .root)
            return nil
        }
        let (declarations, defaults) = JobVariables.resolve(root, overrides: [:], context: context)
        let values = parent.passedVariables(
            variables, path: variablesPath, declarations: declarations, defaults: defaults)
        context.variables = values
        let document = JobVariables.substitute(
            root, path: .root, declarations: declarations, values: values, context: context)
        ObjectKeys.check(
            document.members ?? [], path: .root, allowed: JobLoader.topLevelKeys, context: context)
        checkVersion(document)
        readInlineCompositions(document)
        if let audio = document["audio"] {
            context.error(
                "a composition's soundtrack is not mixed into the job that plays it: remove 'audio'",
                at: audio, path: .root.key("audio"))
        }
        guard let outputNode = document["output"] else {
            context.error("missing required key 'output' (its size and duration)", at: document, path: .root)
            return nil
        }
        let output = OutputDecoding.decode(
            outputNode, path: .root.key("output"), jobFile: context.file, context: context)
        let layers = decodeLayers(document["layers"], in: document, at: .root)
        let camera = document["camera"].flatMap {
            Camera.decode($0, path: .root.key("camera"), context: context)
        }
        guard let output else { return nil }
        return DecodedComposition(
            size: SIMD2(Double(output.layoutWidth), Double(output.layoutHeight)),
            duration: output.durationSeconds, layers: layers, camera: camera)
    }

    /// An inline composition (`compositions.name`), with the values passed in.
    func decodeInlineComposition(
        _ node: JSONNode, path: JSONPath, passing variables: JSONNode?, at variablesPath: JSONPath,
        from parent: DecodeContext
    ) -> DecodedComposition? {
        guard let members = node.members else {
            context.error("expected a composition object, got \(node.value.typeName)", at: node, path: path)
            return nil
        }
        let (declarations, defaults) = JobVariables.resolve(
            node, overrides: [:], context: context, path: path.key("variables"))
        let values = parent.passedVariables(
            variables, path: variablesPath, declarations: declarations, defaults: defaults)
        context.variables = values
        let definition = JSONNode(
            value: .object(
                members.map { member in
                    guard member.key != "variables" else { return member }
                    return JSONMember(
                        key: member.key, keyLocation: member.keyLocation,
                        value: JobVariables.substitute(
                            member.value, path: path.key(member.key), declarations: declarations,
                            values: values, context: context))
                }), location: node.location)
        let before = context.diagnostics.count
        let parameters = Self.inlineTable.decode(definition, path: path, context: context)
        guard context.diagnostics.count == before else { return nil }
        let size = parameters[Key.size].value(at: 0),
            duration = parameters[Key.duration].value(at: 0)
        context.timelineDuration = duration
        context.frameSize = (size.x, size.y)
        let layers = decodeLayers(definition["layers"], in: definition, at: path)
        let camera = definition["camera"].flatMap {
            Camera.decode($0, path: path.key("camera"), context: context)
        }
        return DecodedComposition(
            size: SIMD2(size.x, size.y), duration: duration, layers: layers, camera: camera)
    }

    private func decodeLayers(_ node: JSONNode?, in document: JSONNode, at documentPath: JSONPath)
        -> [LayerNode]
    {
        let path = documentPath.key("layers")
        guard let node else {
            context.error("missing required key 'layers'", at: document, path: documentPath)
            return []
        }
        guard let elements = node.elements else {
            context.error("expected an array of layers, got \(node.value.typeName)", at: node, path: path)
            return []
        }
        return elements.enumerated().compactMap { index, element in
            decodeLayer(element, path: path.index(index))
        }
    }
}
