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

    enum Key {
        static let amplitude = ParameterKey<Animated<Double>>("amplitude")
        static let frequency = ParameterKey<Animated<Double>>("frequency")
        static let decay = ParameterKey<Animated<Double>>("decay")
        static let speed = ParameterKey<Animated<Double>>("speed")
        static let duration = ParameterKey<Animated<Double>>("duration")
        static let triggers = ParameterKey<JSONNode?>("triggers")
    }

    /// The defaults are the seed's sample values.
    public static let kind = EffectKind(
        name: "ripple", summary: "a damped wave spreading from touch points (SwiftUI's Ripple shader sample)",
        parameters: ParameterTable([
            Parameter(
                Key.amplitude, .number(-1000...1000), default: .number(12),
                help: "largest displacement in pixels; 0 = unchanged"),
            Parameter(
                Key.frequency, .number(0...1000), default: .number(15), help: "radians per second of the wave"
            ),
            Parameter(
                Key.decay, .number(0...1000), default: .number(8),
                help: "damping per second: amount × e^(−decay·t)"),
            Parameter(
                Key.speed, .number(1...100_000), default: .number(1200),
                help: "pixels per second the wave front travels"),
            Parameter(
                Key.duration, .constantNumber(0.001...3600), default: .number(3),
                help: "seconds each ripple runs after its trigger"),
            Parameter(
                Key.triggers,
                .structured(
                    "array of {\"at\": seconds, \"origin\": [x, y]}",
                    schema: .array(of: ValueSchema.object(triggerTable), count: 1...maximumTriggerCount)),
                help: "1 to 10000 triggers: when and where ripples start (below)"),
            edgesParameter,
        ])
    ) { p, path, context in
        guard let node = p.node(Key.triggers) else { return nil }
        guard
            let triggers = decodeTriggers(
                node, path: p.path(Key.triggers), speed: p[Key.speed],
                duration: p[Key.duration].value(at: 0), context: context)
        else {
            return nil
        }
        return RippleEffect(
            amplitude: p[Key.amplitude], frequency: p[Key.frequency], decay: p[Key.decay],
            speed: p[Key.speed], duration: p[Key.duration].value(at: 0), triggers: triggers,
            edges: PlanarSampler.Edges(rawValue: p[edgesKey]) ?? .transparent)
    }

    static let maximumTriggerCount = 10_000

    enum TriggerKey {
        static let at = ParameterKey<Animated<Double>>("at")
        static let origin = ParameterKey<Animated<Point2>>("origin")
    }

    static let triggerTable = ParameterTable([
        Parameter(
            TriggerKey.at, .constantNumber(0...(24 * 3600)),
            help: "seconds on the job's timeline, at most the output's duration"),
        Parameter(TriggerKey.origin, .point(nil), help: "[x, y] in the layer's own pixels"),
    ])

    /// Why a wave from `origin` can never show: it starts farther outside the frame than the
    /// distance it travels (`reach`, speed × duration) plus four frames' larger side (room for a
    /// layer that is moved or scaled into view). Nil: it may show.
    static func unreachable(_ origin: Point2, reach: Double, frame: (width: Double, height: Double)?)
        -> String?
    {
        guard let frame else { return nil }
        let dx = max(0, -origin.x, origin.x - frame.width), dy = max(0, -origin.y, origin.y - frame.height)
        let outside = (dx * dx + dy * dy).squareRoot()
        guard outside > reach + 4 * max(frame.width, frame.height) else { return nil }
        return "origin \(origin) is \(Int(outside.rounded())) pixels outside the \(Int(frame.width))×"
            + "\(Int(frame.height)) frame; the wave travels \(Int(reach.rounded())) (speed × duration), "
            + "so this ripple never shows"
    }

    static func decodeTriggers(
        _ node: JSONNode, path: JSONPath, speed: Animated<Double>, duration: Double, context: DecodeContext
    ) -> [Trigger]? {
        guard let elements = node.elements, !elements.isEmpty else {
            context.error(
                "expected a non-empty array of triggers ({\"at\": seconds, \"origin\": [x, y]}), got \(node.value.typeName)",
                at: node, path: path)
            return nil
        }
        guard elements.count <= maximumTriggerCount else {
            context.error(
                "at most \(maximumTriggerCount) triggers, got \(elements.count)", at: node, path: path)
            return nil
        }
        let before = context.diagnostics.count
        var triggers: [Trigger] = []
        for (index, element) in elements.enumerated() {
            let triggerPath = path.index(index)
            let p = triggerTable.decode(element, path: triggerPath, context: context)
            let at = p[TriggerKey.at].value(at: 0)
            if let end = context.timelineDuration, at > end, let atNode = p.node(TriggerKey.at) {
                context.error(
                    "trigger at \(NumberText.format(at)) s is after the end of the timeline (\(NumberText.format(end)) s)",
                    at: atNode, path: triggerPath.key("at"))
            }
            let origin = p[TriggerKey.origin]
            if let problem = unreachable(
                origin.value(at: at), reach: speed.value(at: at) * duration, frame: context.frameSize),
                let originNode = p.node(TriggerKey.origin)
            {
                context.error(problem, at: originNode, path: triggerPath.key("origin"))
            }
            triggers.append(Trigger(at: at, origin: origin))
        }
        return context.diagnostics.count == before ? triggers : nil
    }

    public func stage(at time: Double, layerSize: SIMD2<Double>) -> (any PixelStage)? {
        let waves = triggers.compactMap { trigger -> Ripple.Wave? in
            let elapsed = time - trigger.at
            guard elapsed > 0, elapsed <= duration else { return nil }
            let origin = trigger.origin.value(at: time)
            return Ripple.Wave(origin: SIMD2(Float(origin.x), Float(origin.y)), elapsed: Float(elapsed))
        }
        return Ripple(
            amplitude: Float(amplitude.value(at: time)), frequency: Float(frequency.value(at: time)),
            decay: Float(decay.value(at: time)), speed: Float(speed.value(at: time)), waves: waves)
    }
}

/// The seed's ripple as a pixel stage: a damped sine wave spreading from each touch point. For a
/// pixel at distance d from a wave's origin, t' = max(0, elapsed − d / speed) and
/// amount = amplitude · sin(frequency · t') · exp(−decay · t'); the pixel samples the layer at
/// position + amount · normalize(position − origin) and its colour gains
/// 0.3 · (amount / amplitude) · alpha. Overlapping waves add their amounts. It both moves and
/// colours: the summed amount goes from `mapBack` to `colour` through the batch's carried room.
public struct Ripple: PixelStage {
    public struct Wave: Sendable {
        public let origin: SIMD2<Float>
        /// Seconds since the wave's trigger.
        public let elapsed: Float

        public init(origin: SIMD2<Float>, elapsed: Float) {
            self.origin = origin
            self.elapsed = elapsed
        }
    }

    public let amplitude: Float
    public let frequency: Float
    public let decay: Float
    public let speed: Float
    public let waves: [Wave]

    /// nil when nothing would change (no wave, or amplitude 0): the stage is then left out.
    public init?(amplitude: Float, frequency: Float, decay: Float, speed: Float, waves: [Wave]) {
        guard amplitude != 0, !waves.isEmpty, speed > 0 else { return nil }
        (self.amplitude, self.frequency, self.decay, self.speed) = (amplitude, frequency, decay, speed)
        self.waves = waves
    }

    public var reach: Double { Double(abs(amplitude)) * Double(waves.count) }
    /// Not smooth at any scale: the moves turn sharply at the wave's origin and front.
    public var featureSize: Double? { nil }
    public var movesPixels: Bool { true }
    public var changesColor: Bool { true }

    public func mapBack(_ batch: StageBatch, count: Int) {
        map(x: batch.x, y: batch.y, amounts: batch.carried, count: count)
    }

    /// `map` on `count` groups in one call, so the polynomials' constants and the waves stay in
    /// registers from group to group instead of being fetched again per call. Groups go two at
    /// a time: a wave's amount is one long chain of dependent steps (square root, sine and
    /// exponential polynomials), and one group's chain alone left the core waiting on it.
    @inline(never)
    func map(
        x: UnsafeMutablePointer<SIMD8<Float>>, y: UnsafeMutablePointer<SIMD8<Float>>,
        amounts: UnsafeMutablePointer<SIMD8<Float>>, count: Int
    ) {
        var k = 0
        while k &+ 1 < count {
            (amounts[k], amounts[k &+ 1]) = map(&x[k], &y[k], &x[k &+ 1], &y[k &+ 1])
            k &+= 2
        }
        if k < count { amounts[k] = map(&x[k], &y[k]) }
    }

    public func color(_ batch: StageBatch, count: Int) {
        for k in 0..<count {
            let c = batch.color + 4 &* k
            // The seed brightens the sampled colour: rgb += 0.3 · (amount / amplitude) · alpha.
            let lift = 0.3 * (batch.carried[k] * (1 / amplitude)) * c[3]
            (c[0], c[1], c[2]) = (c[0] + lift, c[1] + lift, c[2] + lift)
        }
    }

    /// The front's reach from `wave`'s origin, squared. Beyond it (distance ≥ elapsed · speed) the
    /// amount is 0; testing the squared distance against it, with room for the square root's
    /// rounding, skips the square root too for groups the front has not reached: the same
    /// result, cheaper.
    @inline(__always)
    func reachSquared(_ wave: Wave) -> Float {
        let front = wave.elapsed * speed * 1.001 + 1
        return front * front
    }

    /// Moves the positions and returns the waves' summed amount.
    @inline(__always)
    func map(_ x: inout SIMD8<Float>, _ y: inout SIMD8<Float>) -> SIMD8<Float> {
        var moveX = SIMD8<Float>(), moveY = SIMD8<Float>(), total = SIMD8<Float>()
        for wave in waves {
            let dx = x - wave.origin.x, dy = y - wave.origin.y
            let squared = dx * dx + dy * dy
            if all(squared .> reachSquared(wave)) { continue }
            // 1/√d² gives the distance and, with no division, the direction's scale.
            let inverse = reciprocalSquareRoot(squared).replacing(with: 0, where: squared .== 0)
            let travelled = squared * inverse * (1 / speed)
            // Before the wave front reaches a pixel its amount is exactly 0: most of a layer,
            // for most of a ripple's life, costs no sine or exponential. (`travelled ≥ elapsed`
            // is `t == 0`; that test compiled to a loop over the lanes.)
            if all(travelled .>= wave.elapsed) { continue }
            add(wave, travelled: travelled, dx: dx, dy: dy, inverse: inverse, &moveX, &moveY, &total)
        }
        x += moveX
        y += moveY
        return total
    }

    /// `map` on two groups, each lane with the same operations in the same order (the same
    /// bits), both groups' chains side by side where the wave reaches both.
    @inline(__always)
    func map(
        _ x0: inout SIMD8<Float>, _ y0: inout SIMD8<Float>, _ x1: inout SIMD8<Float>, _ y1: inout SIMD8<Float>
    ) -> (SIMD8<Float>, SIMD8<Float>) {
        let x = SIMD16(lowHalf: x0, highHalf: x1), y = SIMD16(lowHalf: y0, highHalf: y1)
        var moveX = SIMD16<Float>(), moveY = SIMD16<Float>(), total = SIMD16<Float>()
        for wave in waves {
            let dx = x - wave.origin.x, dy = y - wave.origin.y
            let squared = dx * dx + dy * dy
            let reach = reachSquared(wave)
            // Each group is skipped or not as `map` on it alone would (a wave that has not
            // reached a group changes nothing in it, but an infinite position would become NaN).
            let first = !all(squared.lowHalf .> reach), second = !all(squared.highHalf .> reach)
            if !first && !second { continue }
            let inverse = reciprocalSquareRoot(squared).replacing(with: 0, where: squared .== 0)
            let travelled = squared * inverse * (1 / speed)
            let firstMoves = first && !all(travelled.lowHalf .>= wave.elapsed)
            let secondMoves = second && !all(travelled.highHalf .>= wave.elapsed)
            if firstMoves && secondMoves {
                let t = positive(wave.elapsed - travelled)
                let amount = amplitude * sine(frequency * t) * exponential(-decay * t)
                moveX += amount * dx * inverse
                moveY += amount * dy * inverse
                total += amount
            } else if firstMoves {
                add(
                    wave, travelled: travelled.lowHalf, dx: dx.lowHalf, dy: dy.lowHalf,
                    inverse: inverse.lowHalf,
                    &moveX.lowHalf, &moveY.lowHalf, &total.lowHalf)
            } else if secondMoves {
                add(
                    wave, travelled: travelled.highHalf, dx: dx.highHalf, dy: dy.highHalf,
                    inverse: inverse.highHalf, &moveX.highHalf, &moveY.highHalf, &total.highHalf)
            }
        }
        x0 += moveX.lowHalf
        y0 += moveY.lowHalf
        x1 += moveX.highHalf
        y1 += moveY.highHalf
        return (total.lowHalf, total.highHalf)
    }

    /// Adds `wave`'s move and amount at pixels `travelled` from its origin (in the seconds its
    /// front took to reach them).
    @inline(__always)
    func add(
        _ wave: Wave, travelled: SIMD8<Float>, dx: SIMD8<Float>, dy: SIMD8<Float>, inverse: SIMD8<Float>,
        _ moveX: inout SIMD8<Float>, _ moveY: inout SIMD8<Float>, _ total: inout SIMD8<Float>
    ) {
        let t = positive(wave.elapsed - travelled)
        let amount = amplitude * sine(frequency * t) * exponential(-decay * t)
        // normalize(0) is undefined in Metal; at the origin itself the wave moves nothing
        // (`inverse` is 0 there).
        moveX += amount * dx * inverse
        moveY += amount * dy * inverse
        total += amount
    }
}
