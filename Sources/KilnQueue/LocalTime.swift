import Foundation

/// Civil (wall-clock) time in a zone, as seconds "as if UTC", and back.
enum LocalTime {
    static func civil(_ instant: Double, in zone: TimeZone) -> Double {
        instant + Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: instant)))
    }

    /// The instant a wall clock shows `civil`: the first of two in a fall-back overlap; for a time
    /// skipped by a spring-forward gap, the instant the gap ends (the first valid time after it).
    static func instant(civil: Double, in zone: TimeZone) -> Double {
        func offset(_ t: Double) -> Double {
            Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: t)))
        }
        // Zones change offset at most once within a day around any moment that matters here.
        let before = offset(civil - 86_400 / 2), after = offset(civil + 86_400 / 2)
        let valid = Set([before, after]).map { civil - $0 }.filter { LocalTime.civil($0, in: zone) == civil }
        if let first = valid.min() { return first }
        // In a gap: the clock jumped from before-offset to after-offset; find that moment.
        var low = civil - after, high = civil - before
        while high - low > 0.5 {
            let middle = (low + high) / 2
            if offset(middle) == before { low = middle } else { high = middle }
        }
        return high.rounded()
    }
}
