/// Everything that moves a symbol layer, evaluated as a pure function of time: its symbol
/// effects, replacements, variable value and symbol-effect transition.
public struct SymbolAnimation: Sendable {
    /// Own then inherited, in that order.
    public let effects: [SymbolEffect]
    /// Sorted by time.
    public let replacements: [SymbolReplacement]
    public let contentTransition: SymbolContentTransition
    /// nil: every layer lit.
    public let variableValue: Animated<Double>?
    /// The layer's lifetime with a symbolEffect transition, if any.
    public let presence: SymbolPresence?

    public init(
        effects: [SymbolEffect], replacements: [SymbolReplacement],
        contentTransition: SymbolContentTransition = .default, variableValue: Animated<Double>?,
        presence: SymbolPresence?
    ) {
        self.effects = effects
        self.replacements = replacements.sorted { $0.time < $1.time }
        self.contentTransition = contentTransition
        self.variableValue = variableValue
        self.presence = presence
    }

    /// What to draw at `time`: normally one drawing; two during a replace (old first, new on
    /// top). `layers` gives the layers of an artwork (0 = the symbol, k = the k-th replacement).
    public func drawings(at time: Double, layers: (Int) -> [SymbolLayerInfo]) -> [SymbolDrawing] {
        guard let index = replacements.lastIndex(where: { $0.time <= time }) else {
            return [drawing(0, layers: layers(0), at: time, role: nil)]
        }
        let replacement = replacements[index]
        let old = index == 0 ? 0 : replacements[index - 1].artwork
        let elapsed = time - replacement.time
        let oldLayers = layers(old)
        var result: [SymbolDrawing] = []
        if elapsed < contentTransition.exitDuration(layerCount: oldLayers.count) {
            result.append(drawing(old, layers: oldLayers, at: time, role: .exit(elapsed)))
        }
        result.append(
            drawing(replacement.artwork, layers: layers(replacement.artwork), at: time, role: .entry(elapsed))
        )
        return result
    }

    /// What a drawing is doing in a replace, with the seconds since the replacement.
    private enum ReplaceRole {
        case exit(Double)
        case entry(Double)
    }

    private func drawing(_ artwork: Int, layers: [SymbolLayerInfo], at time: Double, role: ReplaceRole?)
        -> SymbolDrawing
    {
        var whole = SymbolPose.rest
        var poses = [SymbolPose](repeating: .rest, count: layers.count)
        for effect in effects {
            effect.apply(at: time, layers: layers, whole: &whole, poses: &poses)
        }
        if let variableValue {
            applyVariableValue(variableValue, at: time, layers: layers, poses: &poses)
        }
        presence?.apply(at: time, whole: &whole, poses: &poses)
        if let role {
            let byLayer = contentTransition.scope == .byLayer
            func pose(_ layer: Int?) -> SymbolPose {
                switch role {
                case .exit(let elapsed): contentTransition.exitPose(elapsed: elapsed, layer: layer)
                case .entry(let elapsed): contentTransition.entryPose(elapsed: elapsed, layer: layer)
                }
            }
            if byLayer {
                for index in poses.indices { poses[index] = poses[index].combined(with: pose(index)) }
            } else {
                whole = whole.combined(with: pose(nil))
            }
        }
        return SymbolDrawing(artwork: artwork, whole: whole, layers: poses)
    }

    /// Lights the variable layers whose threshold the value reaches. Each layer's light is the
    /// share of the last `variableValueFade` seconds (sampled) during which it was reached, eased,
    /// so a change cross-fades and a steady value lights exactly.
    private func applyVariableValue(
        _ value: Animated<Double>, at time: Double, layers: [SymbolLayerInfo], poses: inout [SymbolPose]
    ) {
        let count = SymbolEffectTiming.variableValueSamples
        let window = SymbolEffectTiming.variableValueFade
        let samples: [Double] =
            value.isConstant
            ? [value.value(at: time)]
            : (0..<count).map { value.value(at: time - window * (Double($0) + 0.5) / Double(count)) }
        for (index, layer) in layers.enumerated() {
            guard let threshold = layer.variableThreshold else { continue }
            let reached = samples.reduce(0) { $0 + ($1 >= threshold ? 1 : 0) }
            let share = Double(reached) / Double(samples.count)
            poses[index].opacity *= SymbolEffectTiming.litOpacity(
                Easing.easeInOut(share), floor: SymbolEffectTiming.unlitOpacity)
        }
    }
}
