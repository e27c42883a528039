/// One symbol effect a layer carries (`"symbolEffects"` in a job): which effect, with which
/// options, and when it plays. The timing of every effect is in `SymbolEffectTiming`.
public struct SymbolEffect: Sendable, Equatable {
    /// A span of job time during which an indefinite effect is on.
    public struct ActiveInterval: Sendable, Hashable {
        /// Seconds; −∞ for an effect that is always on (it is then already in effect at time 0,
        /// without animating in).
        public let start: Double
        /// Seconds, after `start`; nil: on to the end.
        public let end: Double?

        public init(start: Double, end: Double?) {
            self.start = start
            self.end = end
        }

        public static let always = ActiveInterval(start: -.infinity, end: nil)
    }

    /// SF Symbols' behaviours: a discrete effect plays once at each trigger; an indefinite one
    /// holds while it is active.
    public enum Behavior: Sendable, Equatable {
        /// Sorted, strictly increasing job seconds.
        case discrete(triggers: [Double])
        /// Sorted, not overlapping.
        case indefinite(active: [ActiveInterval])
    }

    public static let speedRange: ClosedRange<Double> = 0.1...10
    public static let repeatRange: ClosedRange<Int> = 1...100

    public var name: SymbolEffectName
    public var behavior: Behavior
    /// Discrete: cycles per trigger (nil: 1). Indefinite pulse and variable colour: the most
    /// cycles per activation (nil: unlimited).
    public var repeatCount: Int?
    /// Multiplies the effect's rate: durations and the by-layer stagger divide by it.
    public var speed: Double
    /// Indefinite only: false makes activations and deactivations take effect at once.
    public var animated: Bool

    public init(
        name: SymbolEffectName, behavior: Behavior, repeatCount: Int? = nil, speed: Double = 1,
        animated: Bool = true
    ) {
        self.name = name
        self.behavior = behavior
        self.repeatCount = repeatCount
        self.speed = speed
        self.animated = animated
    }

    public var kind: SymbolEffectName.Kind { name.kind }

    /// Effects that can play once per trigger.
    public static let discreteKinds: Set<SymbolEffectName.Kind> = [.bounce, .pulse, .variableColor]
    /// Effects that can hold while active.
    public static let indefiniteKinds: Set<SymbolEffectName.Kind> = [
        .pulse, .variableColor, .scale, .appear, .disappear,
    ]
    /// Indefinite effects that cycle while active (the others move to a state and hold it).
    public static let cyclingKinds: Set<SymbolEffectName.Kind> = [.pulse, .variableColor]
}
