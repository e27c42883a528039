/// Decoders for a layer's lifetime, its transition's animation, and property mappings
/// (`scrollTransition`, `visualEffect`, custom transitions); transitions themselves decode through
/// `TransitionDecoder`.
enum ModifierDecoding {
    /// The longest eased transition, in seconds.
    static let durationRange: ClosedRange<Double> = 0...60

    /// What `decodeAnimation` reads.
    static let animationSchema = JSONSchema.reference(
        "transitionAnimation",
        to: .anyOf([
            JSONSchema.object(
                [
                    (
                        "duration",
                        ValueSchema.number(durationRange).describing("seconds; 0 is instant")
                    ),
                    ("ease", ValueSchema.easing.describing("the curve (default easeInOut)")),
                ], required: ["duration"]),
            JSONSchema.object(
                [("spring", ValueSchema.springObject(value: nil, limits: .transition))], required: ["spring"]),
        ]).describing(
            "{\"duration\": seconds, \"ease\": …} or {\"spring\": {…}} (default: SwiftUI's default spring)"))

    /// What `decodeMapping` reads for one property.
    static let mappingSchema: JSONSchema = {
        let table = JSONSchema.array(of: ValueSchema.point(nil), count: 1...Int.max)
            .describing("[[input, value], …], inputs strictly increasing")
        let input = ValueSchema.choice(MappingInput.allCases.map(\.rawValue))
            .describing("the input it reads (default phase)")
        let line = ValueSchema.number(nil)
        return .anyOf([
            JSONSchema.type("number").describing("a constant"),
            ValueSchema.variable,
            table,
            JSONSchema.object([
                ("of", input), ("map", table), ("times", line.describing("default 1")),
                ("plus", line.describing("default 0")),
            ]).with(
                "oneOf",
                [
                    .requiring(["map"]),
                    JSONSchema.anyOf([.requiring(["times"]), .requiring(["plus"])])
                        .with("not", .requiring(["map"])),
                ]),
        ])
    }()

    /// One of a mapping object's effect stages.
    static let mappedEffectSchema = JSONSchema.object(
        [
            (
                "at",
                JSONSchema.reference("mapping", to: mappingSchema).describing(
                    "the effect's time from an input (default |phase|: 0 at rest, 1 at the far phases)")
            ),
            ("effect", JSONSchema.reference(.effectStage)),
        ], required: ["effect"]
    ).describing("an effect stage played on a clock the mapping sets")

    /// What `decodeMappings` reads: at least one property or effect, each a mapping.
    static let mappingsSchema = JSONSchema.reference(
        "mappings",
        to: JSONSchema.object(
            ModifierProperty.allCases.map { property in
                (
                    property.rawValue,
                    JSONSchema.reference("mapping", to: mappingSchema).describing(
                        property.help + ", clamped to " + NumberText.format(property.range))
                )
            } + [
                (
                    "effects",
                    JSONSchema.array(of: mappedEffectSchema).describing(
                        "effect stages after the layer's own, each at a time mapped from an input")
                )
            ]
        ).with("minProperties", .number(1)).describing(
            "properties (opacity, scale, rotation, …) and effect stages mapped from the phase or the layer's on-screen box"
        ))
    /// `{"duration": 0.35, "ease": "easeInOut"}` or `{"spring": {"response": …, "dampingFraction": …}}`
    /// (or `{"spring": {"duration": …, "bounce": …}}`).
    static func decodeAnimation(_ node: JSONNode, path: JSONPath, context: DecodeContext)
        -> TransitionAnimation?
    {
        guard let members = node.members else {
            context.error(
                "expected {\"duration\": seconds, \"ease\": …} or {\"spring\": {…}}, got \(node.value.typeName)",
                at: node, path: path)
            return nil
        }
        let before = context.diagnostics.count
        if let springNode = node["spring"] {
            ObjectKeys.check(members, path: path, allowed: ["spring"], context: context)
            let springPath = path.key("spring")
            guard let springMembers = springNode.members else {
                context.error(
                    "expected a spring object, got \(springNode.value.typeName)", at: springNode,
                    path: springPath)
                return nil
            }
            ObjectKeys.check(
                springMembers, path: springPath,
                allowed: ["response", "dampingFraction", "duration", "bounce"],
                context: context)
            let spring = ValueDecoding.springParameters(
                springNode, path: springPath, limits: .transition, context: context)
            return context.diagnostics.count == before ? .spring(spring) : nil
        }
        ObjectKeys.check(members, path: path, allowed: ["duration", "ease", "spring"], context: context)
        guard let durationNode = node["duration"] else {
            context.error(
                "missing required key 'duration' (seconds), or give a 'spring'", at: node, path: path)
            return nil
        }
        let duration = ValueDecoding.constantNumber(
            durationNode, path: path.key("duration"), range: durationRange, context: context)
        let easing = node["ease"].map {
            ValueDecoding.decodeEasing($0, path: path.key("ease"), context: context)
        }
        guard let duration, context.diagnostics.count == before else { return nil }
        return .eased(duration: duration, easing: (easing ?? .easeInOut) ?? .easeInOut)
    }

    /// `{"rotation": [[-1, 20], [1, -20]], "opacity": {"of": "minY", "map": [[0, 0], [120, 1]]},
    /// "hueRotation": {"of": "minY", "times": 0.1}, "scale": 0.9}`.
    static func decodeMappings(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> ModifierMappings?
    {
        guard let members = node.members else {
            context.error(
                "expected an object of properties (\(ModifierProperty.allCases.map(\.rawValue).joined(separator: ", "))), "
                    + "got \(node.value.typeName)", at: node, path: path)
            return nil
        }
        let before = context.diagnostics.count
        ObjectKeys.check(
            members, path: path, allowed: ModifierProperty.allCases.map(\.rawValue) + ["effects"],
            context: context)
        var mappings: [(property: ModifierProperty, mapping: Mapping)] = []
        for member in members {
            guard let property = ModifierProperty(rawValue: member.key) else { continue }
            if let mapping = decodeMapping(member.value, path: path.key(member.key), context: context) {
                mappings.append((property, mapping))
            }
        }
        let effects = node["effects"].map {
            decodeMappedEffects($0, path: path.key("effects"), context: context)
        }
        if members.isEmpty {
            context.error("expected at least one property", at: node, path: path)
        }
        return context.diagnostics.count == before ? ModifierMappings(mappings, effects: effects ?? []) : nil
    }

    /// `[{"at": mapping, "effect": {"wave": {…}}}, …]`.
    static func decodeMappedEffects(_ node: JSONNode, path: JSONPath, context: DecodeContext)
        -> [MappedEffect]
    {
        guard let elements = node.elements else {
            context.error(
                "expected an array of {\"at\": mapping, \"effect\": effect stage}, got \(node.value.typeName)",
                at: node, path: path)
            return []
        }
        guard let decoder = context.effects else {
            context.error("effect stages cannot be written here", at: node, path: path)
            return []
        }
        return elements.enumerated().compactMap { index, element in
            let elementPath = path.index(index)
            guard let members = element.members else {
                context.error(
                    "expected {\"at\": mapping, \"effect\": effect stage}, got \(element.value.typeName)",
                    at: element, path: elementPath)
                return nil
            }
            ObjectKeys.check(members, path: elementPath, allowed: ["at", "effect"], context: context)
            guard let effectNode = element["effect"] else {
                context.error(
                    "missing required key 'effect' (an effect stage, as in a layer's effects)", at: element,
                    path: elementPath)
                return nil
            }
            let at = element["at"].map { decodeMapping($0, path: elementPath.key("at"), context: context) }
            let effect = decoder.decode(effectNode, path: elementPath.key("effect"), context: context)
            guard let effect, let clock = at ?? MappedEffect.distanceFromRest else { return nil }
            return MappedEffect(at: clock, effect: effect)
        }
    }

    static func decodeMapping(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> Mapping? {
        switch node.value {
        case .number(let value):
            return Mapping(input: .phase, curve: .linear(times: 0, plus: value))
        case .array:
            return decodeTable(node, path: path, context: context).map {
                Mapping(input: .phase, curve: .table($0))
            }
        case .object(let members):
            let before = context.diagnostics.count
            ObjectKeys.check(members, path: path, allowed: ["of", "map", "times", "plus"], context: context)
            var input = MappingInput.phase
            if let ofNode = node["of"] {
                let names = MappingInput.allCases.map(\.rawValue)
                input =
                    ValueDecoding.decodeChoice(ofNode, path: path.key("of"), choices: names, context: context)
                    .flatMap(MappingInput.init(rawValue:)) ?? .phase
            }
            let hasTable = node["map"] != nil
            let hasLine = node["times"] != nil || node["plus"] != nil
            if hasTable == hasLine {
                context.error(
                    "a mapping has either 'map' ([[input, value], …]) or 'times'/'plus' (input × times + plus)",
                    at: node, path: path)
                return nil
            }
            var curve = Mapping.Curve.linear(times: 0, plus: 0)
            if let mapNode = node["map"] {
                curve =
                    decodeTable(mapNode, path: path.key("map"), context: context).map { .table($0) } ?? curve
            } else {
                func number(_ key: String, _ fallback: Double) -> Double {
                    node[key].flatMap {
                        ValueDecoding.constantNumber($0, path: path.key(key), range: nil, context: context)
                    } ?? fallback
                }
                curve = .linear(times: number("times", 1), plus: number("plus", 0))
            }
            return context.diagnostics.count == before ? Mapping(input: input, curve: curve) : nil
        default:
            context.error(
                "expected a mapping: [[input, value], …], {\"of\": input, \"map\": […]}, "
                    + "{\"of\": input, \"times\": k, \"plus\": c} or a constant number; got \(node.value.typeName)",
                at: node, path: path)
            return nil
        }
    }

    private static func decodeTable(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> [SIMD2<
        Double
    >]? {
        guard let elements = node.elements, !elements.isEmpty else {
            context.error("expected a non-empty array of [input, value] pairs", at: node, path: path)
            return nil
        }
        let before = context.diagnostics.count
        var points: [SIMD2<Double>] = []
        for (index, element) in elements.enumerated() {
            let pointPath = path.index(index)
            guard
                let point = ValueDecoding.constantPoint(
                    element, path: pointPath, range: nil, context: context)
            else { continue }
            if let last = points.last, point.x <= last.x {
                context.error(
                    "inputs must be strictly increasing: \(NumberText.format(point.x)) follows "
                        + "\(NumberText.format(last.x))", at: element, path: pointPath)
            }
            points.append(SIMD2(point.x, point.y))
        }
        return context.diagnostics.count == before ? points : nil
    }

    /// The layer keys `appear`, `disappear`, `transition` and `transitionAnimation`; nil when
    /// the layer is always present.
    static func decodeLifetime(_ node: JSONNode, path: JSONPath, transitions: TransitionDecoder)
        -> LayerLifetime?
    {
        let context = transitions.context
        let before = context.diagnostics.count
        func seconds(_ key: String) -> Double? {
            node[key].flatMap {
                ValueDecoding.constantNumber(
                    $0, path: path.key(key), range: LayerKind.lifetimeRange, context: context)
            }
        }
        let appear = seconds("appear"), disappear = seconds("disappear")
        let transition = node["transition"].map {
            transitions.decode($0, path: path.key("transition"))
        }
        let animation = node["transitionAnimation"].map {
            decodeAnimation($0, path: path.key("transitionAnimation"), context: context)
        }
        guard context.diagnostics.count == before else { return nil }
        if let appear, let disappear, disappear <= appear, let disappearNode = node["disappear"] {
            context.error(
                "disappear (\(NumberText.format(disappear)) s) must be after appear (\(NumberText.format(appear)) s)",
                at: disappearNode, path: path.key("disappear"))
            return nil
        }
        guard appear != nil || disappear != nil else {
            for key in ["transition", "transitionAnimation"] {
                if let keyNode = node[key] {
                    context.error(
                        "'\(key)' has no effect without 'appear' or 'disappear' (seconds)", at: keyNode,
                        path: path.key(key))
                }
            }
            return nil
        }
        return LayerLifetime(
            appear: appear, disappear: disappear, transition: (transition ?? .opacity) ?? .opacity,
            animation: (animation ?? .default) ?? .default)
    }
}
