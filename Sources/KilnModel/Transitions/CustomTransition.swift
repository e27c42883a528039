/// A transition of the job's own: property mappings over the phase (SwiftUI's custom
/// `Transition` with a `body(content:phase:)`), which may also read the layer's box.
public struct CustomTransition: TransitionContent {
    enum Key {
        static let mappings = ParameterKey<JSONNode?>("mappings")
    }

    public static let kind = TransitionKind(
        name: "custom", summary: "property mappings over the phase (−1 … 0 … 1), as in visualEffect",
        parameters: ParameterTable([
            Parameter(
                Key.mappings,
                .structured("object of property mappings", schema: ModifierDecoding.mappingsSchema),
                help: "the value itself: properties mapped from the phase or the layer's box")
        ]), shorthand: Key.mappings.name, example: #"{"custom": {"opacity": [[-1, 0], [0, 1], [1, 0]]}}"#
    ) { parameters, decoder in
        parameters.node(Key.mappings).flatMap {
            ModifierDecoding.decodeMappings($0, path: parameters.objectPath, context: decoder.context)
        }.map(Self.init(mappings:))
    }

    public let mappings: ModifierMappings

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        mappings.values(for: MappingInputs(phase: phase, frame: frame))
    }

    public func effects(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> [any EffectContent]
    {
        mappings.effects(for: MappingInputs(phase: phase, frame: frame))
    }

    public var readsGeometry: Bool { mappings.readsGeometry }
}

extension Transition {
    public static func custom(_ mappings: ModifierMappings) -> Transition {
        Transition(CustomTransition(mappings: mappings))
    }
}
