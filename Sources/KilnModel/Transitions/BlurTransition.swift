/// Blurs in from `radius` and out to it.
public struct BlurTransition: TransitionContent {
    enum Key {
        static let radius = ParameterKey<Animated<Double>>("radius")
    }

    public static let kind = TransitionKind(
        name: "blur", summary: "sharpens in from a gaussian blur and blurs out to it",
        parameters: ParameterTable([
            Parameter(
                Key.radius, .constantNumber(ModifierProperty.blur.range), default: .number(10),
                help: "gaussian standard deviation in pixels at the far phases")
        ]), shorthand: Key.radius.name, example: #"{"blur": 10}"#
    ) { parameters, _ in
        Self(radius: parameters[Key.radius].value(at: 0))
    }

    public let radius: Double

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        var values = ModifierValues()
        values.blur = radius * min(abs(phase), 1)
        return values
    }
}

extension Transition {
    public static func blur(_ radius: Double) -> Transition { Transition(BlurTransition(radius: radius)) }
}
