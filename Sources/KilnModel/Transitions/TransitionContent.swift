/// What one transition does: the modifiers it applies at transition phase p (−1 `willAppear`,
/// 0 identity, +1 `didDisappear`). Values may leave their modifiers' ranges; `Transition`
/// clamps them.
public protocol TransitionContent: Sendable {
    /// The registered kind, which names, documents and decodes this transition.
    static var kind: TransitionKind { get }

    /// `container` is the size of the space the layer lives in (what `move` slides across),
    /// `frame` the layer's on-screen box (what custom mappings may read).
    func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues

    /// True when the values depend on the layer's on-screen box, which then has to be measured.
    var readsGeometry: Bool { get }

    /// The transitions a composite is made of, so that tools can walk every kind a job uses.
    var parts: [Transition] { get }
}

extension TransitionContent {
    public var readsGeometry: Bool { parts.contains { $0.readsGeometry } }
    public var parts: [Transition] { [] }
}
