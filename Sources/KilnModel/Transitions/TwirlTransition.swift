/// The seed's Twirl (the SwiftUI sample Kiln was first built to render): scale 0.5, opacity 0
/// and blur 10 off identity; rotation +360° while appearing and −360° while disappearing;
/// brightness +1 while appearing.
public struct TwirlTransition: TransitionContent {
    public static let kind = TransitionKind(
        name: "twirl",
        summary:
            "SwiftUI's custom Twirl transition from the visual-effects session: spins, grows, fades and sharpens in (brightened); spins the other way out",
        make: { Self() })

    public init() {}

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        let far = min(abs(phase), 1)
        let appearing = phase < 0
        var values = ModifierValues()
        values.scale = 1 - 0.5 * far
        values.opacity = 1 - far
        values.blur = 10 * far
        values.rotation = (appearing ? 360 : -360) * far
        values.brightness = appearing ? far : 0
        return values
    }
}

extension Transition {
    public static let twirl = Transition(TwirlTransition())
}
