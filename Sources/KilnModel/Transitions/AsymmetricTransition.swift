/// SwiftUI's `.asymmetric(insertion:removal:)`: one transition to enter, another to leave.
/// Usually written as the bare object `{"insertion": …, "removal": …}`, which is this kind's table.
public struct AsymmetricTransition: TransitionContent {
    enum Key {
        static let insertion = ParameterKey<JSONNode?>("insertion")
        static let removal = ParameterKey<JSONNode?>("removal")
    }

    public static let kind = TransitionKind(
        name: "asymmetric",
        summary:
            "one transition to enter, another to leave; usually written as {\"insertion\": …, \"removal\": …}",
        parameters: ParameterTable([
            Parameter(
                Key.insertion, .structured("transition", schema: .reference(.transition)),
                help: "how the layer enters (phases −1 … 0)"),
            Parameter(
                Key.removal, .structured("transition", schema: .reference(.transition)),
                help: "how the layer leaves (phases 0 … 1)"),
        ]), example: #"{"insertion": {"move": "top"}, "removal": "opacity"}"#
    ) { parameters, decoder in
        let insertion = parameters.node(Key.insertion).map {
            decoder.decode($0, path: parameters.path(Key.insertion))
        }
        let removal = parameters.node(Key.removal).map {
            decoder.decode($0, path: parameters.path(Key.removal))
        }
        guard let insertion = insertion ?? nil, let removal = removal ?? nil else { return nil }
        return Self(insertion: insertion, removal: removal)
    }

    public let insertion: Transition
    public let removal: Transition

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        (phase <= 0 ? insertion : removal).values(phase: phase, container: container, frame: frame)
    }

    public func effects(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> [any EffectContent]
    {
        (phase <= 0 ? insertion : removal).effects(phase: phase, container: container, frame: frame)
    }

    public var parts: [Transition] { [insertion, removal] }
}

extension Transition {
    public static func asymmetric(insertion: Transition, removal: Transition) -> Transition {
        Transition(AsymmetricTransition(insertion: insertion, removal: removal))
    }
}
