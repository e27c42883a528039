/// Decodes a layer's `"symbolEffects"`: each element is a dot name (an indefinite effect, always
/// on) or an object `{"effect": name, "at" | "value" | "active", "repeat", "speed", "animated"}`.
public enum SymbolEffectDecoding {
    public static let keys = ["effect", "at", "value", "active", "repeat", "speed", "animated"]
    /// Triggers (listed or found in a value) and intervals per effect.
    public static let maximumTriggerCount = TimeSourceDecoding.maximumTriggerCount
    public static let maximumIntervalCount = TimeSourceDecoding.maximumTriggerCount
    /// Times in a job are within a day (like `appear`).
    static let timeRange: ClosedRange<Double> = 0...86_400

    /// What `decodeList` reads; the rules between keys that depend on the effect's kind are
    /// stated with the kinds' sets, so a new kind or option is in the schema by itself.
    public static let listSchema: JSONSchema = {
        let kinds = SymbolEffectName.Kind.allCases
        func names(_ included: (SymbolEffectName.Kind) -> Bool) -> [String] {
            kinds.filter(included).flatMap(SymbolEffectName.spellings(of:))
        }
        func effect(is included: (SymbolEffectName.Kind) -> Bool) -> JSONSchema {
            let bases = kinds.filter(included).map(\.rawValue).joined(separator: "|")
            return .having("effect", .pattern("^(?:\(bases))(?:\\.|$)"))
        }
        let anyName = ValueSchema.choice(names { _ in true }).describing(
            "the dot name, e.g. bounce.up.byLayer")
        let discrete = JSONSchema.anyOf([.requiring(["at"]), .requiring(["value"])])
        let object = JSONSchema.object(
            [
                ("effect", anyName),
                ("at", ValueSchema.triggerTimes.describing("discrete: trigger times in seconds")),
                (
                    "value",
                    ValueSchema.kind(.number(ValueDecoding.magnitudeRange))
                        .describing("discrete: a trigger at every change of this animated number")
                ),
                (
                    "active",
                    JSONSchema.array(
                        of: JSONSchema.type("array").with(
                            "prefixItems",
                            [
                                ValueSchema.number(timeRange),
                                JSONSchema.anyOf([ValueSchema.number(timeRange), .type("null")]),
                            ]
                        ).with("items", .bool(false)).with("minItems", .number(1)),
                        count: 1...maximumIntervalCount
                    ).describing("indefinite: [start, end] intervals in seconds, in order; [start] stays on")
                ),
                (
                    "repeat",
                    ValueSchema.integer(SymbolEffect.repeatRange).describing(
                        "discrete: cycles per trigger; indefinite pulse and variableColor: cycles per activation"
                    )
                ),
                (
                    "speed",
                    ValueSchema.number(SymbolEffect.speedRange).describing("multiplies the rate (default 1)")
                ),
                (
                    "animated",
                    ValueSchema.boolean.describing("indefinite only: false switches at once (default true)")
                ),
            ], required: ["effect"]
        ).with(
            "allOf",
            [
                JSONSchema().with("not", .requiring(["at", "value"])),
                .when(discrete, then: .forbidding(["active", "animated"])),
                .when(effect { !SymbolEffect.indefiniteKinds.contains($0) }, then: discrete),
                .when(
                    effect { !SymbolEffect.discreteKinds.contains($0) }, then: .forbidding(["at", "value"])),
                .when(
                    effect { !SymbolEffect.cyclingKinds.contains($0) },
                    then: .when(.requiring(["repeat"]), then: discrete)),
            ])
        let always = ValueSchema.choice(names(SymbolEffect.indefiniteKinds.contains))
            .describing("an indefinite effect, always on")
        return JSONSchema.array(of: .reference("symbolEffect", to: .anyOf([always, object])))
    }()

    /// The list, or nil after reporting every problem in it.
    public static func decodeList(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> [SymbolEffect]?
    {
        guard let elements = node.elements else {
            context.error(
                "expected an array of symbol effects (names such as \"pulse\" or objects such as "
                    + "{\"effect\": \"bounce\", \"at\": [1]}), got \(node.value.typeName)", at: node,
                path: path)
            return nil
        }
        let before = context.diagnostics.count
        let effects = elements.enumerated().compactMap { index, element in
            decode(element, path: path.index(index), context: context)
        }
        return context.diagnostics.count == before ? effects : nil
    }

    /// One element of the list.
    public static func decode(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> SymbolEffect? {
        switch node.value {
        case .string:
            guard let name = decodeName(node, path: path, context: context) else { return nil }
            guard SymbolEffect.indefiniteKinds.contains(name.kind) else {
                context.error(
                    "\(name.kind.rawValue) is discrete: give it `at` (seconds) or `value` (an animated number), "
                        + "e.g. {\"effect\": \"\(name)\", \"at\": [1]}", at: node, path: path)
                return nil
            }
            return SymbolEffect(name: name, behavior: .indefinite(active: [.always]))
        case .object(let members):
            return decodeObject(node, members: members, path: path, context: context)
        default:
            context.error(
                "expected a symbol effect: a name such as \"pulse\" or an object such as "
                    + "{\"effect\": \"bounce\", \"at\": [1]}, got \(node.value.typeName)", at: node,
                path: path)
            return nil
        }
    }

    /// A dot name at `path`, or nil after reporting why not.
    public static func decodeName(_ node: JSONNode, path: JSONPath, context: DecodeContext)
        -> SymbolEffectName?
    {
        guard let text = ValueDecoding.decodeString(node, path: path, context: context) else { return nil }
        do {
            return try SymbolEffectName.parse(text)
        } catch {
            context.error(error.message, at: node, path: path)
            return nil
        }
    }

    private static func decodeObject(
        _ node: JSONNode, members: [JSONMember], path: JSONPath, context: DecodeContext
    ) -> SymbolEffect? {
        let before = context.diagnostics.count
        ObjectKeys.check(members, path: path, allowed: keys, context: context)
        var name: SymbolEffectName?
        if let effectNode = node["effect"] {
            name = decodeName(effectNode, path: path.key("effect"), context: context)
        } else {
            context.error(
                "missing required key 'effect' (a symbol effect name such as \"bounce.up\")", at: node,
                path: path)
        }
        // Every key is read even when the name is wrong, so all mistakes show in one run.
        let at = node["at"].flatMap {
            TimeSourceDecoding.decodeTriggers($0, path: path.key("at"), context: context)
        }
        let valueTriggers = node["value"].flatMap {
            decodeValueTriggers($0, path: path.key("value"), context: context)
        }
        let active = node["active"].flatMap {
            decodeIntervals($0, path: path.key("active"), context: context)
        }
        let repeatCount = node["repeat"].flatMap {
            ValueDecoding.decodeInteger(
                $0, path: path.key("repeat"), range: SymbolEffect.repeatRange, context: context)
        }
        let speed = node["speed"].flatMap {
            ValueDecoding.constantNumber(
                $0, path: path.key("speed"), range: SymbolEffect.speedRange, context: context)
        }
        let animated = node["animated"].flatMap {
            ValueDecoding.decodeBoolean($0, path: path.key("animated"), context: context)
        }
        guard let name else { return nil }
        let kind = name.kind.rawValue
        let triggerKey = node["at"] != nil ? "at" : "value"
        let isDiscrete = node["at"] != nil || node["value"] != nil
        if let valueNode = node["value"], node["at"] != nil {
            context.error("give 'at' or 'value', not both", at: valueNode, path: path.key("value"))
        }
        if let activeNode = node["active"], isDiscrete {
            context.error(
                "'active' holds an indefinite effect; with '\(triggerKey)' the effect is discrete",
                at: activeNode,
                path: path.key("active"))
        }
        if isDiscrete, !SymbolEffect.discreteKinds.contains(name.kind), let triggerNode = node[triggerKey] {
            context.error(
                "\(kind) is indefinite: it takes 'active' (a list of [start, end] intervals) or nothing "
                    + "(always on), not '\(triggerKey)'", at: triggerNode, path: path.key(triggerKey))
        }
        if !isDiscrete, !SymbolEffect.indefiniteKinds.contains(name.kind) {
            context.error(
                "\(kind) is discrete: give it `at` (seconds) or `value` (an animated number)", at: node,
                path: path)
        }
        if let animatedNode = node["animated"], isDiscrete {
            context.error(
                "'animated' applies to indefinite effects only (a discrete effect always animates)",
                at: animatedNode, path: path.key("animated"))
        }
        if let repeatNode = node["repeat"], !isDiscrete, !SymbolEffect.cyclingKinds.contains(name.kind) {
            context.error(
                "'repeat' applies to discrete effects and to indefinite pulse and variableColor; "
                    + "\(kind) holds a state while active", at: repeatNode, path: path.key("repeat"))
        }
        guard context.diagnostics.count == before else { return nil }
        let behavior: SymbolEffect.Behavior =
            isDiscrete
            ? .discrete(triggers: at ?? valueTriggers ?? []) : .indefinite(active: active ?? [.always])
        return SymbolEffect(
            name: name, behavior: behavior, repeatCount: repeatCount, speed: speed ?? 1,
            animated: animated ?? true)
    }

    /// `"value"`: an animated number; its changes are the triggers.
    private static func decodeValueTriggers(_ node: JSONNode, path: JSONPath, context: DecodeContext)
        -> [Double]?
    {
        guard let value = ValueDecoding.decodeNumber(node, path: path, range: nil, context: context) else {
            return nil
        }
        let triggers = SymbolValueTriggers.changes(of: value)
        guard triggers.count <= maximumTriggerCount else {
            context.error(
                "this value changes more than \(maximumTriggerCount) times; at most \(maximumTriggerCount) "
                    + "triggers are allowed", at: node, path: path)
            return nil
        }
        return triggers
    }

    /// `"active"`: `[[start, end], [start]]`, in order, not overlapping; an end may be omitted
    /// (or null) on the last interval only.
    private static func decodeIntervals(_ node: JSONNode, path: JSONPath, context: DecodeContext)
        -> [SymbolEffect.ActiveInterval]?
    {
        guard let elements = node.elements else {
            context.error(
                "expected an array of [start, end] intervals in seconds, got \(node.value.typeName)",
                at: node,
                path: path)
            return nil
        }
        guard !elements.isEmpty else {
            context.error("expected at least one [start, end] interval", at: node, path: path)
            return nil
        }
        guard elements.count <= maximumIntervalCount else {
            context.error(
                "\(elements.count) intervals; at most \(maximumIntervalCount) are allowed", at: node,
                path: path)
            return nil
        }
        let before = context.diagnostics.count
        var intervals: [SymbolEffect.ActiveInterval] = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.index(index)
            guard let bounds = element.elements, (1...2).contains(bounds.count) else {
                context.error(
                    "expected an interval [start, end] or [start] (on from start), got "
                        + ValueDecoding.describe(element), at: element, path: elementPath)
                continue
            }
            guard
                let start = ValueDecoding.constantNumber(
                    bounds[0], path: elementPath.index(0), range: timeRange, context: context)
            else { continue }
            var end: Double?
            if bounds.count == 2, !isNull(bounds[1]) {
                guard
                    let value = ValueDecoding.constantNumber(
                        bounds[1], path: elementPath.index(1), range: timeRange, context: context)
                else { continue }
                guard value > start else {
                    context.error(
                        "the interval's end (\(NumberText.format(value)) s) must be after its start "
                            + "(\(NumberText.format(start)) s)", at: bounds[1], path: elementPath.index(1))
                    continue
                }
                end = value
            }
            if let previous = intervals.last {
                guard let previousEnd = previous.end else {
                    context.error(
                        "the previous interval has no end (it lasts to the end), so no interval can follow it",
                        at: element, path: elementPath)
                    continue
                }
                guard start >= previousEnd else {
                    context.error(
                        "this interval starts at \(NumberText.format(start)) s, before the previous one ends "
                            + "(\(NumberText.format(previousEnd)) s); intervals must be in order and not overlap",
                        at: bounds[0], path: elementPath.index(0))
                    continue
                }
            }
            intervals.append(SymbolEffect.ActiveInterval(start: start, end: end))
        }
        return context.diagnostics.count == before ? intervals : nil
    }

    private static func isNull(_ node: JSONNode) -> Bool {
        if case .null = node.value { return true }
        return false
    }
}
