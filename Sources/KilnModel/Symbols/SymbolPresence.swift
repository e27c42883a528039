/// A symbol layer's entrance and exit as a *transition* (`"transition": {"symbolEffect":
/// "appear.up.byLayer"}` with the layer's `appear` / `disappear`): it enters as the effect's
/// `appear` form and leaves as its `disappear` form, with the effect's direction and scope.
public struct SymbolPresence: Sendable, Equatable {
    /// Job seconds; nil: present from the start, without entering.
    public let appear: Double?
    /// Job seconds; nil: never leaves.
    public let disappear: Double?
    /// An `appear` or `disappear` name; only its options matter (which one is given does not).
    public let effect: SymbolEffectName
    public let speed: Double

    public init(appear: Double?, disappear: Double?, effect: SymbolEffectName, speed: Double = 1) {
        self.appear = appear
        self.disappear = disappear
        self.effect = effect
        self.speed = speed
    }

    /// Seconds from `disappear` (or `appear`) until the symbol is exactly hidden (or shown), all
    /// `layerCount` layers included: how long the layer must be kept after `disappear`.
    public func settleTime(layerCount: Int) -> Double {
        let stagger =
            effect.scope == .wholeSymbol
            ? 0 : SymbolEffectTiming.layerStagger * Double(max(layerCount - 1, 0))
        return (SymbolEffectTiming.presenceSpring.settleTime + stagger) / speed
    }

    /// Combines the entrance or exit at `time` into the poses of one drawing.
    func apply(at time: Double, whole: inout SymbolPose, poses: inout [SymbolPose]) {
        if effect.scope == .wholeSymbol {
            whole = whole.combined(with: pose(at: time))
        } else {
            for index in poses.indices {
                let lag = SymbolEffectTiming.layerStagger * Double(index) / speed
                poses[index] = poses[index].combined(with: pose(at: time - lag))
            }
        }
    }

    /// The pose of one track at `time` (already shifted by its stagger).
    public func pose(at time: Double) -> SymbolPose {
        var events: [SymbolStateChain.Event] = []
        if let appear { events.append(.init(time: appear, target: 0)) }
        if let disappear { events.append(.init(time: disappear, target: 1)) }
        let chain = SymbolStateChain(events: events, initial: appear == nil ? 0 : 1)
        let speed = speed
        let hidden = chain.value(at: time) { SymbolEffectTiming.presenceSpring.progress(at: $0 * speed) }
        let leaving = disappear.map { time >= $0 } ?? false
        return Self.hiddenPose(hidden, side: Self.side(of: effect, appearing: !leaving))
    }

    /// Where a hidden symbol sits: −1 above its place, +1 below, 0 in place. Appearing `up`
    /// rises into place (from below); disappearing `up` rises out of it (to above).
    static func side(of name: SymbolEffectName, appearing: Bool) -> Double {
        guard let direction = name.direction else { return 0 }
        return (direction == .up) == appearing ? 1 : -1
    }

    /// The pose of a symbol `hidden` (0 shown … 1 hidden) of the way out: it fades, shrinks and
    /// moves towards `side`. Exactly rest at 0 and exactly transparent at 1.
    static func hiddenPose(_ hidden: Double, side: Double) -> SymbolPose {
        guard hidden != 0 else { return .rest }
        let scale = SymbolEffectTiming.mix(1, SymbolEffectTiming.hiddenScale, hidden)
        return SymbolPose(
            scale: SIMD2(repeating: scale),
            offset: SIMD2(0, side * SymbolEffectTiming.hiddenOffset * hidden),
            opacity: min(max(SymbolEffectTiming.mix(1, 0, hidden), 0), 1))
    }
}
