/// How a layer enters and leaves: SwiftUI's transitions, as modifier values over the transition
/// phase p: −1 is `willAppear`, 0 `identity`, +1 `didDisappear`. Built-in transitions move from
/// their identity values at p = 0 to their far values at |p| = 1 in a straight line; the phase
/// itself follows the transition's animation curve. Each kind is one `TransitionContent` type in
/// `Transitions/`, registered by the scene module's `LayerRegistry`.
public struct Transition: Sendable {
    public let content: any TransitionContent

    public init(_ content: any TransitionContent) {
        self.content = content
    }

    /// The registered name of the outermost kind (`"combined"` for a list).
    public var kind: String { type(of: content).kind.name }

    /// The modifiers at phase `phase`, each within the range its modifier accepts.
    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double> = .zero)
        -> ModifierValues
    {
        content.values(phase: phase, container: container, frame: frame).clamped
    }

    /// The effect stages the transition adds at `phase` (`TransitionContent.effects`); none at 0.
    public func effects(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double> = .zero)
        -> [any EffectContent]
    {
        phase == 0 ? [] : content.effects(phase: phase, container: container, frame: frame)
    }

    /// True when the transition's values depend on the layer's on-screen box.
    public var readsGeometry: Bool { content.readsGeometry }

    /// The kinds this transition is built from, itself first, composites walked through.
    public var kindsUsed: [String] { [kind] + content.parts.flatMap(\.kindsUsed) }
}

/// The curve a transition's phase follows.
public enum TransitionAnimation: Sendable, Hashable {
    case eased(duration: Double, easing: Easing)
    case spring(Spring)

    /// SwiftUI's default animation.
    public static let `default` = TransitionAnimation.spring(.default)

    /// 0 at the start, 1 when done (a spring may overshoot on the way).
    public func progress(at elapsed: Double) -> Double {
        switch self {
        case .eased(let duration, let easing):
            return duration > 0 ? easing(elapsed / duration) : 1
        case .spring(let spring):
            return spring.progress(at: elapsed)
        }
    }

    /// Seconds after which the animation stays within 0.1 % of its end, when a removed layer is
    /// taken away.
    public var settleTime: Double { settleTime(within: 1e-3) }

    /// Seconds after which the animation stays within `tolerance` of its end.
    public func settleTime(within tolerance: Double) -> Double {
        switch self {
        case .eased(let duration, _):
            return duration
        case .spring(let spring):
            // Scanning backwards from a generous bound finds the last time the spring is still
            // visibly away from rest, overshoots included.
            let step = 1.0 / 1000, limit = 20.0
            var t = limit
            while t > 0, abs(1 - spring.progress(at: t)) < tolerance { t -= step }
            return min(t + step, limit)
        }
    }
}

/// When a layer is on screen and its transition phase at any time.
public struct LayerLifetime: Sendable {
    /// Seconds; nil means present from the start, without an insertion transition.
    public let appear: Double?
    /// Seconds; nil means never removed.
    public let disappear: Double?
    public let transition: Transition
    public let animation: TransitionAnimation
    /// Cached: a spring's settling time is found numerically.
    public let settleTime: Double
    /// When an entrance is over: from then on its phase is exactly 0, not a spring's last
    /// millionths, so a layer that has entered and holds still draws the same frame again (and
    /// its frames share a digest). A millionth of a slide across a 4K frame is 0.004 pixel.
    public let entranceRestTime: Double

    public init(appear: Double?, disappear: Double?, transition: Transition, animation: TransitionAnimation) {
        self.appear = appear
        self.disappear = disappear
        self.transition = transition
        self.animation = animation
        self.settleTime = animation.settleTime
        self.entranceRestTime = animation.settleTime(within: 1e-6)
    }

    /// The transition's modifiers at `time`, or nil when the layer is not shown. A removal that
    /// begins before the entrance has settled starts from where the entrance had got to (as an
    /// interrupted SwiftUI animation does) instead of jumping to the identity first.
    public func values(at time: Double, container: SIMD2<Double>, frame: SIMD4<Double> = .zero)
        -> ModifierValues?
    {
        guard let phase = phase(at: time) else { return nil }
        var values =
            phase == 0 ? .identity : transition.values(phase: phase, container: container, frame: frame)
        if let appear, let disappear, time >= disappear, disappear - appear < settleTime {
            let interrupted = min(animation.progress(at: disappear - appear) - 1, 0)
            let leftover = transition.values(phase: interrupted, container: container, frame: frame)
            values = values.adding(leftover, weight: 1 - min(max(phase, 0), 1)).clamped
        }
        return values
    }

    /// The transition's effect stages at `time` (none when the layer is not shown or at rest).
    /// A removal that interrupts the entrance starts them from the removal's own phase: unlike
    /// modifier values, stages cannot be blended field by field.
    public func effects(at time: Double, container: SIMD2<Double>, frame: SIMD4<Double> = .zero)
        -> [any EffectContent]
    {
        guard let phase = phase(at: time) else { return [] }
        return transition.effects(phase: phase, container: container, frame: frame)
    }

    /// How much of its slot the layer takes in a stack's layout at `time`: 0 before it appears,
    /// growing to 1 along its animation as it enters, shrinking back to 0 as it leaves (a SwiftUI
    /// view inserted into or removed from an HStack: its neighbours move over smoothly). A removal
    /// that interrupts the entrance shrinks from the size the entrance had reached.
    public func layoutPresence(at time: Double) -> Double {
        guard let phase = phase(at: time) else { return 0 }
        let remaining = 1 - min(abs(phase), 1)
        if let appear, let disappear, time >= disappear, disappear - appear < settleTime {
            let reached = 1 - min(abs(min(animation.progress(at: disappear - appear) - 1, 0)), 1)
            return reached * remaining
        }
        return remaining
    }

    /// The transition phase at `time`, or nil when the layer is not shown: before it appears,
    /// and once its removal transition has finished.
    public func phase(at time: Double) -> Double? {
        if let disappear, time >= disappear {
            let elapsed = time - disappear
            if elapsed >= settleTime { return nil }
            return max(animation.progress(at: elapsed), 0)
        }
        if let appear {
            if time < appear { return nil }
            if time - appear >= entranceRestTime { return 0 }
            // A spring's overshoot past identity is dropped rather than read as a removal phase.
            return min(animation.progress(at: time - appear) - 1, 0)
        }
        return 0
    }
}
