/// What one transition does: the modifiers it applies at transition phase p (−1 `willAppear`,
/// 0 identity, +1 `didDisappear`). Values may leave their modifiers' ranges; `Transition`
/// clamps them.
public protocol TransitionContent: Sendable {
    /// The registered kind, which names, documents and decodes this transition.
    static var kind: TransitionKind { get }

    /// `container` is the size of the space the layer lives in (what `move` slides across),
    /// `frame` the layer's on-screen box (what custom mappings may read).
    func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues

    /// Effect stages the transition adds to the layer at `phase`, after the layer's own effects:
    /// what modifier values cannot say (a mask growing from the centre, a wipe, a dissolve, a
    /// colour change that reads the pixel). Each is an effect content the scene renders as it
    /// renders a layer's effects (a `PixelStageEffect`, a colour matrix); an effect-only
    /// transition returns identity values and its stages here.
    func effects(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> [any EffectContent]

    /// True when the values depend on the layer's on-screen box, which then has to be measured.
    var readsGeometry: Bool { get }

    /// The transitions a composite is made of, so that tools can walk every kind a job uses.
    var parts: [Transition] { get }
}

extension TransitionContent {
    public func effects(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> [any EffectContent]
    {
        []
    }

    public var readsGeometry: Bool { parts.contains { $0.readsGeometry } }
    public var parts: [Transition] { [] }
}
