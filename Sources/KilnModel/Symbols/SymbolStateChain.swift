/// A value that moves towards a new target at each event and starts each move from wherever the
/// previous one had got to, so an effect switched off half-way turns back without a jump. A pure
/// function of time: the chain is replayed from the first event at every sample.
struct SymbolStateChain: Sendable {
    struct Event: Sendable, Hashable {
        let time: Double
        let target: Double
    }

    /// Sorted by time; a time of −∞ is a state held since for ever.
    let events: [Event]
    let initial: Double

    /// The value at `time`; `progress` maps seconds since an event to 0…1 (exactly 1 once done).
    func value(at time: Double, progress: (Double) -> Double) -> Double {
        var from = initial
        var current: Event?
        for event in events {
            guard event.time <= time else { break }
            if let current {
                from = SymbolEffectTiming.mix(from, current.target, progress(event.time - current.time))
            }
            current = event
        }
        guard let current else { return initial }
        return SymbolEffectTiming.mix(from, current.target, progress(time - current.time))
    }
}
