/// SwiftUI's `.blurReplace(_:)`: blurs, scales and fades the layer in and out. SwiftUI documents
/// the shape (blur combined with scale; `downUp`, the default, scales up while inserting and
/// down while removing; `upUp` scales up both ways) but not the amounts; the defaults are Kiln's
/// own: the `blur` transition's 10 px and a scale of 0.7, between `.scale`'s 0 and a barely
/// visible change. While removing, `upUp` grows by the inverse factor.
public struct BlurReplaceTransition: TransitionContent {
    public enum Configuration: String, Sendable, CaseIterable {
        case downUp, upUp
    }

    enum Key {
        static let configuration = ParameterKey<String>("configuration")
        static let scale = ParameterKey<Animated<Double>>("scale")
        static let radius = ParameterKey<Animated<Double>>("radius")
    }

    public static let kind = TransitionKind(
        name: "blurReplace", summary: "blurs, scales and fades in and out (SwiftUI's .blurReplace)",
        parameters: ParameterTable([
            Parameter(
                Key.configuration, .choice(Configuration.allCases.map(\.rawValue)),
                default: .string("downUp"),
                help: "downUp grows in and shrinks out; upUp grows in and grows out"),
            Parameter(
                Key.scale, .constantNumber(0.1...1), default: .number(0.7),
                help: "the scale it grows in from (and shrinks out to; upUp leaves at 1 / scale)"),
            Parameter(
                Key.radius, .constantNumber(ModifierProperty.blur.range), default: .number(10),
                help: "gaussian standard deviation in pixels at the far phases"),
        ]), shorthand: Key.configuration.name,
        example: #"{"blurReplace": {"configuration": "upUp", "radius": 8}}"#
    ) { parameters, _ in
        Configuration(rawValue: parameters[Key.configuration]).map {
            Self(
                configuration: $0, scale: parameters[Key.scale].value(at: 0),
                radius: parameters[Key.radius].value(at: 0))
        }
    }

    public let configuration: Configuration
    public let scale: Double
    public let radius: Double

    public init(configuration: Configuration = .downUp, scale: Double = 0.7, radius: Double = 10) {
        self.configuration = configuration
        self.scale = scale
        self.radius = radius
    }

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>)
        -> ModifierValues
    {
        let far = min(abs(phase), 1)
        let farScale = configuration == .upUp && phase > 0 ? 1 / scale : scale
        var values = ModifierValues()
        values.scale = 1 + (farScale - 1) * far
        values.blur = radius * far
        values.opacity = 1 - far
        return values
    }
}
