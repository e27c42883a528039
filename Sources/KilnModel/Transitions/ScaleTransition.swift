/// SwiftUI's `.scale(_:)`: grows from `scale` into place and shrinks back to it.
public struct ScaleTransition: TransitionContent {
    enum Key {
        static let scale = ParameterKey<Animated<Double>>("scale")
    }

    public static let kind = TransitionKind(
        name: "scale", summary: "scales about the layer's centre from and to a factor",
        parameters: ParameterTable([
            Parameter(
                Key.scale, .constantNumber(-100...100), default: .number(0),
                help: "the scale at the far phases (SwiftUI's .scale uses 0)")
        ]), shorthand: Key.scale.name, example: #"{"scale": 0.5}"#
    ) { parameters, _ in
        Self(scale: parameters[Key.scale].value(at: 0))
    }

    public let scale: Double

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        var values = ModifierValues()
        values.scale = 1 + (scale - 1) * min(abs(phase), 1)
        return values
    }
}

extension Transition {
    public static func scale(_ scale: Double) -> Transition { Transition(ScaleTransition(scale: scale)) }
}
