/// SwiftUI's `.slide`: in from the leading edge, out towards the trailing edge.
public struct SlideTransition: TransitionContent {
    public static let kind = TransitionKind(
        name: "slide", summary: "slides in from the leading edge and out towards the trailing edge",
        make: { Self() })

    public init() {}

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        MoveTransition(edge: phase <= 0 ? .leading : .trailing).values(
            phase: phase, container: container, frame: frame)
    }
}

extension Transition {
    public static let slide = Transition(SlideTransition())
}
