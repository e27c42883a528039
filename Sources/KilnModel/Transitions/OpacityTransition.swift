/// SwiftUI's `.opacity`, the default: fades from transparent and back.
public struct OpacityTransition: TransitionContent {
    public static let kind = TransitionKind(
        name: "opacity", summary: "fades in from transparent and out to it; the default", make: { Self() })

    public init() {}

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        var values = ModifierValues()
        values.opacity = 1 - min(abs(phase), 1)
        return values
    }
}

extension Transition {
    public static let opacity = Transition(OpacityTransition())
}
