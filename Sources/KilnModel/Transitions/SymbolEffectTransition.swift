/// SwiftUI's `.transition(.symbolEffect(.disappear.down))`: a layer enters as the effect's appear
/// form and leaves as its disappear form. A symbol layer reads `effect` and animates layer by
/// layer (`SymbolPresence`); any other layer gets this whole-layer approximation: it fades,
/// scales to `SymbolEffectTiming.hiddenScale` and, with a direction, moves by
/// `SymbolEffectTiming.hiddenOffset` of its height.
public struct SymbolEffectTransition: TransitionContent {
    enum Key {
        static let effect = ParameterKey<String>("effect")
        static let speed = ParameterKey<Animated<Double>>("speed")
    }

    public static let kind = TransitionKind(
        name: "symbolEffect",
        summary:
            "a symbol's appear/disappear effect (e.g. \"disappear.down.byLayer\"); symbol layers animate it layer by layer",
        parameters: ParameterTable([
            Parameter(
                Key.effect, .string,
                help: "appear or disappear with options: appear|disappear[.up|.down][.byLayer|.wholeSymbol]"),
            Parameter(
                Key.speed, .constantNumber(SymbolEffect.speedRange), default: .number(1),
                help: "multiplies the effect's rate (symbol layers)"),
        ]), shorthand: Key.effect.name, example: #"{"symbolEffect": "disappear.down"}"#
    ) { parameters, decoder in
        let path = parameters.path(Key.effect)
        guard let node = parameters.node(Key.effect),
            let name = SymbolEffectDecoding.decodeName(node, path: path, context: decoder.context)
        else { return nil }
        guard name.kind == .appear || name.kind == .disappear else {
            decoder.context.error(
                "a symbolEffect transition is an appear or disappear effect (e.g. \"appear.up\"), "
                    + "not \(name.kind.rawValue)", at: node, path: path)
            return nil
        }
        return Self(effect: name, speed: parameters[Key.speed].value(at: 0))
    }

    /// The parsed appear/disappear name, for symbol layers to animate per layer.
    public let effect: SymbolEffectName
    public let speed: Double

    public init(effect: SymbolEffectName, speed: Double = 1) {
        self.effect = effect
        self.speed = speed
    }

    /// The presence of a layer with this transition, for `SymbolAnimation`.
    public func presence(appear: Double?, disappear: Double?) -> SymbolPresence {
        SymbolPresence(appear: appear, disappear: disappear, effect: effect, speed: speed)
    }

    public var readsGeometry: Bool { effect.direction != nil }

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        let far = min(abs(phase), 1)
        let pose = SymbolPresence.hiddenPose(far, side: SymbolPresence.side(of: effect, appearing: phase < 0))
        var values = ModifierValues()
        values.opacity = pose.opacity
        values.scale = pose.scale.x
        values.offsetY = pose.offset.y * max(frame.w - frame.y, 0)
        return values
    }
}

extension Transition {
    public static func symbolEffect(_ effect: SymbolEffectName, speed: Double = 1) -> Transition {
        Transition(SymbolEffectTransition(effect: effect, speed: speed))
    }
}
