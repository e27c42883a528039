/// Decodes effect stages through the registered effect kinds: a layer's `effects`, and the
/// effect stages of property mappings (`scrollTransition`, `visualEffect`, custom transitions).
/// It holds no context, so a `DecodeContext` can keep one without a reference cycle.
public struct EffectDecoder: Sendable {
    let effectsByName: [String: EffectKind]
    let effectNames: [String]

    public init(kinds: [EffectKind]) {
        var byName: [String: EffectKind] = [:]
        for effect in kinds where byName[effect.name] == nil { byName[effect.name] = effect }
        effectsByName = byName
        effectNames = kinds.map(\.name).uniqued()
    }

    /// `{"name": 12}` or `{"name": {"keyframes": …}}` (the shorthand parameter), or
    /// `{"name": {parameters}}`.
    public func decode(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> EffectNode? {
        let known = effectNames.joined(separator: ", ")
        guard let members = node.members, members.count == 1, let member = members.first else {
            context.error(
                "expected an effect stage: an object with one key naming the effect (one of: \(known))",
                at: node,
                path: path)
            return nil
        }
        let stagePath = path.key(member.key)
        guard let kind = effectsByName[member.key] else {
            let hint = Suggestion.hint(for: member.key, among: effectNames)
            context.error(
                "unknown effect '\(member.key)'\(hint) (known effects: \(known))",
                location: member.keyLocation,
                path: stagePath)
            return nil
        }
        var parametersNode = member.value
        // A bare number, a bare animation ({"keyframes": …} / {"spring": …}, perhaps with a
        // "time") or a soundtrack-driven value ({"audio": …}) sets the shorthand.
        let isAnimation =
            member.value.members.map { members in
                !members.isEmpty
                    && (members.allSatisfy { ValueDecoding.animationKeys.contains($0.key) }
                        || members.contains { $0.key == "audio" })
            } ?? false
        if member.value.number != nil || (isAnimation && kind.shorthand != nil) {
            guard let shorthand = kind.shorthand else {
                context.error(
                    "expected an object of \(kind.name) parameters, got a number", at: member.value,
                    path: stagePath)
                return nil
            }
            parametersNode = JSONNode(
                value: .object([
                    JSONMember(key: shorthand, keyLocation: member.value.location, value: member.value)
                ]),
                location: member.value.location)
        }
        let before = context.diagnostics.count
        let parameters = kind.parameters.decode(parametersNode, path: stagePath, context: context)
        // Built even when a parameter had an error (it then holds a placeholder within range),
        // so the effect's own checks (trigger lists, noise sources) report in the same run.
        let content = kind.make(parameters, stagePath, context)
        guard context.diagnostics.count == before, let content else { return nil }
        context.recordFrameInput(effect: content)
        return EffectNode(kind: kind.name, content: content, path: stagePath)
    }
}
