/// SwiftUI's `.identity`: the layer appears and leaves without any change.
public struct IdentityTransition: TransitionContent {
    public static let kind = TransitionKind(
        name: "identity", summary: "no change: the layer appears and leaves at once", make: { Self() })

    public init() {}

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        ModifierValues()
    }
}

extension Transition {
    public static let identity = Transition(IdentityTransition())
}
