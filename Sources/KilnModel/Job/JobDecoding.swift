/// Walks a parsed job document, decoding the top level and every layer.
struct JobDecoding {
    let context: DecodeContext
    let kindsByName: [String: LayerKind]
    let kindNames: [String]
    let effects: EffectDecoder
    let transitions: TransitionDecoder

    init(
        context: DecodeContext, kinds: [LayerKind], effects: [EffectKind] = [],
        transitions: [TransitionKind] = []
    ) {
        self.context = context
        self.transitions = TransitionDecoder(kinds: transitions, context: context)
        self.effects = EffectDecoder(kinds: effects)
        // Mappings (scroll transitions, visual effects, custom transitions) decode effect stages too.
        context.effects = self.effects
        var byName: [String: LayerKind] = [:]
        for kind in kinds where byName[kind.name] == nil { byName[kind.name] = kind }
        self.kindsByName = byName
        self.kindNames = kinds.map(\.name).filter { byName[$0] != nil }.uniqued()
        if context.compositions == nil {
            context.compositions = CompositionLibrary(
                kinds: kinds, effects: effects, transitions: transitions)
        }
    }

    func decode(_ root: JSONNode) -> Job? {
        guard let members = root.members else {
            context.error(
                "a job file must be a JSON object, got \(root.value.typeName)", at: root, path: .root)
            return nil
        }
        ObjectKeys.check(members, path: .root, allowed: JobLoader.topLevelKeys, context: context)
        context.jobFrameInputs.source = CanonicalJSON.bytes(of: root, omitting: .jobOutsideLayers)
        checkVersion(root)
        readInlineCompositions(root)

        var output: OutputSettings?
        if let outputNode = root["output"] {
            output = OutputDecoding.decode(
                outputNode, path: .root.key("output"), jobFile: context.file, context: context)
        } else {
            context.error("missing required key 'output'", at: root, path: .root)
        }
        if let output { context.timelineDuration = output.durationSeconds }
        // Before the layers: values driven by the soundtrack read it.
        let audio = root["audio"].flatMap {
            AudioDecoding.decode($0, path: .root.key("audio"), context: context)
        }
        context.soundtrack = audio
        if let format = output?.format, !format.carriesAudio, let audioNode = root["audio"] {
            // Refused rather than dropped: a soundtrack that silently vanishes is worse than an error.
            context.error(
                "format \(format.rawValue) cannot carry audio; remove 'audio' or render to h264, hevc, vp9 or "
                    + "prores4444", at: audioNode, path: .root.key("audio"))
        }

        var layers: [LayerNode] = []
        if let layersNode = root["layers"] {
            if let elements = layersNode.elements {
                for (index, element) in elements.enumerated() {
                    if let layer = decodeLayer(element, path: JSONPath.root.key("layers").index(index)) {
                        layers.append(layer)
                    }
                }
            } else {
                context.error(
                    "expected an array of layers, got \(layersNode.value.typeName)", at: layersNode,
                    path: .root.key("layers"))
            }
        } else {
            context.error("missing required key 'layers'", at: root, path: .root)
        }

        let camera = root["camera"].flatMap {
            Camera.decode($0, path: .root.key("camera"), context: context)
        }

        guard let output else { return nil }
        MemoryEstimate.chargeRender(of: output, layers: layers, into: context.memory, limits: context.limits)
        if context.memory.isOver, let largest = context.memory.largest.first {
            context.error(context.memory.message, location: nil, path: largest.path)
        }
        // Clips' sounds join the tracks after them; a job with clips and no `audio` gets a soundtrack.
        var soundtrack = audio
        // A format without sound (GIF, WebP, PNG frames) shows clips silent.
        if !context.clipSounds.isEmpty && output.format.carriesAudio {
            soundtrack = Soundtrack(
                tracks: (audio?.tracks ?? []) + context.clipSounds, loudness: audio?.loudness)
        }
        return Job(
            file: context.file, output: output, layers: layers, camera: camera, audio: soundtrack,
            limits: context.limits)
    }

    func checkVersion(_ root: JSONNode) {
        let path = JSONPath.root.key("kiln")
        guard let node = root["kiln"] else {
            context.error("missing required key 'kiln' (the job format version, 1)", at: root, path: .root)
            return
        }
        guard let version = node.number else {
            context.error(
                "expected the job format version number 1, got \(node.value.typeName)", at: node, path: path)
            return
        }
        if version != Double(Job.formatVersion) {
            context.error(
                "unsupported job format version \(NumberText.format(version)); this Kiln reads version \(Job.formatVersion)",
                at: node, path: path)
        }
    }

    func decodeLayer(_ node: JSONNode, path: JSONPath, insideScroll: Bool = false) -> LayerNode? {
        guard node.members != nil else {
            context.error("expected a layer object, got \(node.value.typeName)", at: node, path: path)
            return nil
        }
        if context.interruptedBy != nil { return nil }
        if let signal = context.interruption?() {
            context.interruptedBy = signal
            context.error("loading was interrupted (signal \(signal))", at: node, path: path)
            return nil
        }
        context.layersSeen += 1
        if context.layersSeen > context.limits.count(.layers) {
            // Reported once; the layers after it are not built.
            if context.layersSeen == context.limits.count(.layers) + 1 {
                context.error(
                    ResourceLimits.message(
                        .layers, value: Double(context.layersSeen), maximum: context.limits[.layers],
                        what: "the number of layers so far"), at: node, path: path)
            }
            return nil
        }
        if let problem = context.limits.violation(
            .nesting, context.layerDepth + 1, "this layer's nesting depth")
        {
            // Its children are not decoded: recursion stops here, whatever the file holds.
            context.error(problem, at: node, path: path)
            return nil
        }
        let before = context.diagnostics.count
        // The lifetime comes first: `"time": "layer"` values in the parameters, effects and
        // children count from this layer's `appear`.
        let (decoded, inputs) = context.collectingFrameInputs(of: node) {
            let lifetime = ModifierDecoding.decodeLifetime(node, path: path, transitions: transitions)
            return context.decodingLayer(appearingAt: lifetime?.appear) {
                decodeLayerContents(
                    node, path: path, lifetime: lifetime, insideScroll: insideScroll,
                    diagnosticsBefore: before)
            }
        }
        // Compositions decode their documents with contexts of their own; what they record
        // stays with their layers.
        var layer = decoded
        layer?.frameInputs = inputs
        return layer
    }

    private func decodeLayerContents(
        _ node: JSONNode, path: JSONPath, lifetime: LayerLifetime?, insideScroll: Bool,
        diagnosticsBefore before: Int
    ) -> LayerNode? {
        var layerName: String?
        if let nameNode = node["name"] {
            layerName = ValueDecoding.decodeString(nameNode, path: path.key("name"), context: context)
        }
        var opacity = Animated<Double>.constant(1)
        if let opacityNode = node["opacity"] {
            opacity =
                ValueDecoding.decodeNumber(
                    opacityNode, path: path.key("opacity"), range: LayerKind.opacityRange, context: context)
                ?? opacity
        }
        var blendMode = BlendMode.normal
        if let blendNode = node["blendMode"] {
            blendMode =
                ValueDecoding.decodeChoice(
                    blendNode, path: path.key("blendMode"), choices: BlendMode.allCases.map(\.rawValue),
                    context: context
                ).flatMap(BlendMode.init(rawValue:)) ?? blendMode
        }

        // The effects are checked whatever else is wrong with the layer (an unknown type, a
        // missing or corrupt file, a bad transition), last so their messages follow the layer's:
        // every problem in the document is reported in one run.
        let decodeEffects = {
            node["effects"].map { self.decodeEffects($0, path: path.key("effects")) } ?? []
        }
        guard let kind = resolveKind(node, path: path) else {
            _ = decodeEffects()
            return nil
        }
        // The kind's own keys and the transform keys form one table, so an unknown key is reported
        // once, with suggestions from both.
        let parameters = ParameterTable(kind.parameters.parameters + LayerTransform.parameters).decode(
            node, path: path, context: context,
            extraKeys: kind.containsLayers
                ? LayerKind.commonKeys.union(LayerKind.containerKeys) : LayerKind.commonKeys)
        // A container's children are checked even when the container itself has errors.
        let children =
            kind.containsLayers
            ? decodeChildren(node, path: path, insideScroll: insideScroll || kind.providesScrollPhase) : []
        var scrollTransition: ModifierMappings?
        if let scrollNode = node["scrollTransition"] {
            if insideScroll {
                scrollTransition = ModifierDecoding.decodeMappings(
                    scrollNode, path: path.key("scrollTransition"), context: context)
            } else {
                context.error(
                    "'scrollTransition' only works on a layer inside a scroll layer", at: scrollNode,
                    path: path.key("scrollTransition"))
            }
        }
        let visualEffect = node["visualEffect"].flatMap {
            ModifierDecoding.decodeMappings($0, path: path.key("visualEffect"), context: context)
        }
        let symbolEffects =
            node["symbolEffects"].flatMap {
                SymbolEffectDecoding.decodeList($0, path: path.key("symbolEffects"), context: context)
            } ?? []
        let symbolEffectsRemoved =
            node["symbolEffectsRemoved"].flatMap {
                ValueDecoding.decodeBoolean($0, path: path.key("symbolEffectsRemoved"), context: context)
            } ?? false
        let compositingGroup =
            kind.containsLayers
            ? node["compositingGroup"].flatMap {
                ValueDecoding.decodeBoolean($0, path: path.key("compositingGroup"), context: context)
            } ?? true : true
        let mask = node["mask"].flatMap { decodeMask($0, path: path.key("mask"), insideScroll: insideScroll) }
        guard context.diagnostics.count == before else {
            _ = decodeEffects()
            return nil
        }
        guard let content = kind.make(parameters, path, context) else {
            // A layer left unbuilt because the job is already over its memory budget is named
            // in that one error, at the end.
            if context.diagnostics.count == before && !context.memory.isOver && !context.memory.estimatesOnly
            {
                context.error("could not build this \(kind.name) layer", at: node, path: path)
            }
            _ = decodeEffects()
            return nil
        }
        let effects = decodeEffects()
        guard context.diagnostics.count == before else { return nil }
        // A composition's layers are its children for whatever walks the tree (offscreen counts,
        // clips to open), though it decodes them itself, from another document.
        let nested = (content as? any NestedLayers)?.nestedLayers
        return LayerNode(
            kind: kind.name, name: layerName, opacity: opacity, blendMode: blendMode, mask: mask,
            compositingGroup: compositingGroup, content: content,
            transform: LayerTransform(parameters), effects: effects, children: nested ?? children,
            lifetime: lifetime,
            scrollTransition: scrollTransition, visualEffect: visualEffect, symbolEffects: symbolEffects,
            symbolEffectsRemoved: symbolEffectsRemoved, path: path)
    }

    /// `{"layer": {…}, "mode": "alpha" | "luminance", "inverted": false}`.
    private func decodeMask(_ node: JSONNode, path: JSONPath, insideScroll: Bool) -> LayerMask? {
        guard let members = node.members else {
            context.error(
                "expected a mask object {\"layer\": {…}, \"mode\": …, \"inverted\": …}, got \(node.value.typeName)",
                at: node, path: path)
            return nil
        }
        ObjectKeys.check(members, path: path, allowed: ["layer", "mode", "inverted"], context: context)
        var mode = LayerMask.Mode.alpha
        if let modeNode = node["mode"] {
            mode =
                ValueDecoding.decodeChoice(
                    modeNode, path: path.key("mode"), choices: LayerMask.Mode.allCases.map(\.rawValue),
                    context: context
                ).flatMap(LayerMask.Mode.init(rawValue:)) ?? mode
        }
        let inverted =
            node["inverted"].flatMap {
                ValueDecoding.decodeBoolean($0, path: path.key("inverted"), context: context)
            } ?? false
        guard let layerNode = node["layer"] else {
            context.error("missing required key 'layer' (the mask's layer)", at: node, path: path)
            return nil
        }
        guard let layer = decodeLayer(layerNode, path: path.key("layer"), insideScroll: insideScroll) else {
            return nil
        }
        return LayerMask(layer: layer, mode: mode, inverted: inverted)
    }

    private func decodeChildren(_ node: JSONNode, path: JSONPath, insideScroll: Bool) -> [LayerNode] {
        let layersPath = path.key("layers")
        guard let layersNode = node["layers"] else {
            context.error("missing required key 'layers' (the group's child layers)", at: node, path: path)
            return []
        }
        guard let elements = layersNode.elements else {
            context.error(
                "expected an array of layers, got \(layersNode.value.typeName)", at: layersNode,
                path: layersPath)
            return []
        }
        return elements.enumerated().compactMap { index, element in
            decodeLayer(element, path: layersPath.index(index), insideScroll: insideScroll)
        }
    }

    private func decodeEffects(_ node: JSONNode, path: JSONPath) -> [EffectNode] {
        guard let elements = node.elements else {
            context.error(
                "expected an array of effect stages, got \(node.value.typeName)", at: node, path: path)
            return []
        }
        return elements.enumerated().compactMap { index, element in
            effects.decode(element, path: path.index(index), context: context)
        }
    }

    private func resolveKind(_ node: JSONNode, path: JSONPath) -> LayerKind? {
        guard let typeNode = node["type"] else {
            context.error(
                "missing required key 'type' (one of: \(kindNames.joined(separator: ", ")))", at: node,
                path: path)
            return nil
        }
        guard let typeName = ValueDecoding.decodeString(typeNode, path: path.key("type"), context: context)
        else {
            return nil
        }
        guard let kind = kindsByName[typeName] else {
            let hint = Suggestion.hint(for: typeName, among: kindNames)
            context.error(
                "unknown layer type '\(typeName)'\(hint) (known types: \(kindNames.joined(separator: ", ")))",
                at: typeNode, path: path.key("type"))
            return nil
        }
        return kind
    }
}

extension Array where Element: Hashable {
    /// The elements without repeats, first occurrences kept in order.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
