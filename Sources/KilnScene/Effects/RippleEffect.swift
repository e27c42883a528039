import Foundation
import KilnModel
import KilnRaster

/// The seed's ripple (a layer effect): a damped sine wave spreads from each touch point, moving
/// pixels along the direction from the origin and brightening the crests. Each trigger starts a
/// ripple whose elapsed time runs from 0 to `duration`, as the seed's keyframe animator drives
/// it; ripples that overlap add up. Before its trigger and after its duration a ripple is gone.
public struct RippleEffect: PixelStageEffect {
    public struct Trigger: Sendable {
        public let at: Double
        public let origin: Animated<Point2>
    }

    public let amplitude: Animated<Double>
    public let frequency: Animated<Double>
    public let decay: Animated<Double>
    public let speed: Animated<Double>
    public let duration: Double
    public let triggers: [Trigger]
    public let edges: PlanarSampler.Edges

    /// The defaults are the seed's sample values.
    public static let kind = EffectKind(
        name: "ripple", summary: "a damped wave spreading from touch points (the seed's Ripple shader)",
        parameters: ParameterTable([
            Parameter(
                "amplitude", .number(-1000...1000), default: .number(12),
                help: "largest displacement in pixels; 0 = unchanged"),
            Parameter(
                "frequency", .number(0...1000), default: .number(15), help: "radians per second of the wave"),
            Parameter(
                "decay", .number(0...1000), default: .number(8),
                help: "damping per second: amount × e^(−decay·t)"),
            Parameter(
                "speed", .number(1...100_000), default: .number(1200),
                help: "pixels per second the wave front travels"),
            Parameter(
                "duration", .constantNumber(0.001...3600), default: .number(3),
                help: "seconds each ripple runs after its trigger"),
            Parameter(
                "triggers", .structured("array of {\"at\": seconds, \"origin\": [x, y]}"),
                help: "1 to 10000 triggers: when and where ripples start (below)"),
            edgesParameter,
        ])
    ) { p, path, context in
        guard let node = p.node("triggers") else { return nil }
        guard let triggers = decodeTriggers(node, path: p.path("triggers"), context: context) else {
            return nil
        }
        return RippleEffect(
            amplitude: p.number("amplitude"), frequency: p.number("frequency"), decay: p.number("decay"),
            speed: p.number("speed"), duration: p.number("duration").value(at: 0), triggers: triggers,
            edges: PlanarSampler.Edges(rawValue: p.string("edges")) ?? .transparent)
    }

    static let triggerTable = ParameterTable([
        Parameter(
            "at", .constantNumber(0...(24 * 3600)),
            help: "seconds on the job's timeline, at most the output's duration"),
        Parameter("origin", .point(nil), help: "[x, y] in the layer's own pixels"),
    ])

    static func decodeTriggers(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> [Trigger]? {
        guard let elements = node.elements, !elements.isEmpty else {
            context.error(
                "expected a non-empty array of triggers ({\"at\": seconds, \"origin\": [x, y]}), got \(node.value.typeName)",
                at: node, path: path)
            return nil
        }
        guard elements.count <= 10_000 else {
            context.error("at most 10000 triggers, got \(elements.count)", at: node, path: path)
            return nil
        }
        let before = context.diagnostics.count
        var triggers: [Trigger] = []
        for (index, element) in elements.enumerated() {
            let triggerPath = path.index(index)
            let p = triggerTable.decode(element, path: triggerPath, context: context)
            let at = p.number("at").value(at: 0)
            if let end = context.timelineDuration, at > end, let atNode = p.node("at") {
                context.error(
                    "trigger at \(at) s is after the end of the timeline (\(end) s)",
                    at: atNode, path: triggerPath.key("at"))
            }
            triggers.append(Trigger(at: at, origin: p.point("origin")))
        }
        return context.diagnostics.count == before ? triggers : nil
    }

    public func stage(at time: Double, layerSize: SIMD2<Double>) -> PixelStage? {
        let waves = triggers.compactMap { trigger -> Ripple.Wave? in
            let elapsed = time - trigger.at
            guard elapsed > 0, elapsed <= duration else { return nil }
            let origin = trigger.origin.value(at: time)
            return Ripple.Wave(origin: SIMD2(Float(origin.x), Float(origin.y)), elapsed: Float(elapsed))
        }
        return Ripple(
            amplitude: Float(amplitude.value(at: time)), frequency: Float(frequency.value(at: time)),
            decay: Float(decay.value(at: time)), speed: Float(speed.value(at: time)), waves: waves
        ).map(PixelStage.ripple)
    }
}
