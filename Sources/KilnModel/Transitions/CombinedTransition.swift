/// SwiftUI's `combined(with:)`: every part applied at once. Usually written as a plain array of
/// transitions, which is this kind's shorthand.
public struct CombinedTransition: TransitionContent {
    enum Key {
        static let transitions = ParameterKey<JSONNode?>("transitions")
    }

    public static let kind = TransitionKind(
        name: "combined", summary: "several transitions at once; usually written as a plain array of them",
        parameters: ParameterTable([
            Parameter(
                Key.transitions,
                .structured(
                    "array of transitions", schema: .array(of: .reference(.transition), count: 1...Int.max)),
                help: "the value itself: factors multiply, offsets and angles add, blurs combine")
        ]), shorthand: Key.transitions.name, example: #"["opacity", {"scale": 0.5}]"#
    ) { parameters, decoder in
        guard let node = parameters.node(Key.transitions) else { return nil }
        let path = parameters.objectPath
        guard let elements = node.elements else {
            decoder.context.error(
                "expected an array of transitions, got \(node.value.typeName)", at: node, path: path)
            return nil
        }
        guard !elements.isEmpty else {
            decoder.context.error("a combined transition needs at least one transition", at: node, path: path)
            return nil
        }
        let decoded = elements.enumerated().map { decoder.decode($1, path: path.index($0)) }
        let parts = decoded.compactMap { $0 }
        return parts.count == decoded.count ? Self(parts: parts) : nil
    }

    public let parts: [Transition]

    public func effects(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> [any EffectContent]
    {
        parts.flatMap { $0.effects(phase: phase, container: container, frame: frame) }
    }

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        parts.reduce(ModifierValues()) {
            $0.combined(with: $1.values(phase: phase, container: container, frame: frame))
        }
    }
}

extension Transition {
    public static func combined(_ parts: [Transition]) -> Transition {
        Transition(CombinedTransition(parts: parts))
    }
}
