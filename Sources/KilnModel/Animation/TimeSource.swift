/// The clock an animation runs on: maps absolute job time to the animation's own time, so one
/// set of keyframes or one spring can start when its layer appears or replay at every trigger.
public enum TimeSource: Sendable, Hashable {
    /// Absolute job seconds.
    case global
    /// Seconds since `start` (a layer's `appear` time); negative before it.
    case offset(start: Double)
    /// Seconds since the latest trigger at or before the job time, so the animation replays from
    /// its start at each trigger. Before the first trigger the time counts up to it from below
    /// zero, which holds keyframes at their first value and springs at `from`. Sorted and
    /// strictly increasing; an empty list never fires and leaves job time as it is.
    case triggers([Double])

    /// The animation's own time at job time `time`.
    public func localTime(at time: Double) -> Double {
        switch self {
        case .global:
            return time
        case .offset(let start):
            return time - start
        case .triggers(let triggers):
            guard let first = triggers.first else { return time }
            guard let latest = Self.latestTrigger(in: triggers, atOrBefore: time) else { return time - first }
            return time - latest
        }
    }

    /// Binary search: a job may hold thousands of triggers and every frame samples each value.
    private static func latestTrigger(in triggers: [Double], atOrBefore time: Double) -> Double? {
        var low = 0
        var high = triggers.count
        // Invariant: triggers[..<low] are ≤ time, triggers[high...] are > time.
        while low < high {
            let middle = (low + high) / 2
            if triggers[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : triggers[low - 1]
    }
}
