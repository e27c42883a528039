/// The triggers of a discrete effect driven by `"value"`: the moments an animated number changes.
/// - keyframes: the time of every keyframe whose value differs from the previous keyframe's (the
///   moment the new value is reached; a keyframe repeating the previous value fires nothing);
/// - a spring whose `from` and `to` differ: its start;
/// - a constant: never;
/// - a soundtrack-driven value: each analysis sample that differs from the one before;
/// - on a `"layer"` clock: those times shifted by the layer's start; on a `{"since": …}` clock:
///   each replay's changes that fall before the next replay, plus the replay's own start when
///   the value jumps back there (its value just before differs from the value at its start).
enum SymbolValueTriggers {
    static func changes(of value: Animated<Double>) -> [Double] {
        let times = rawChanges(of: value).sorted()
        var unique: [Double] = []
        for time in times where unique.last != time { unique.append(time) }
        return unique
    }

    private static func rawChanges(of value: Animated<Double>) -> [Double] {
        switch value {
        case .constant:
            return []
        case .keyframes(let keyframes):
            return zip(keyframes, keyframes.dropFirst()).compactMap { $0.value != $1.value ? $1.time : nil }
        case .spring(let from, let to, let start, _):
            return from != to ? [start] : []
        case .sampled(let curve):
            // Each sample that differs from the one before (the caller caps how many there may be).
            var result: [Double] = []
            for index in curve.values.indices.dropFirst() where curve.values[index] != curve.values[index - 1]
            {
                result.append(curve.start + Double(index) * curve.step)
                if result.count > SymbolEffectDecoding.maximumTriggerCount { break }
            }
            return result
        case .retimed(let inner, let source):
            let local = changes(of: inner)
            switch source {
            case .global:
                return local
            case .offset(let start):
                return local.map { $0 + start }
            case .triggers(let triggers):
                var result: [Double] = []
                for (index, trigger) in triggers.enumerated() {
                    let next = index + 1 < triggers.count ? triggers[index + 1] : .infinity
                    if index > 0, inner.value(at: trigger - triggers[index - 1]) != inner.value(at: 0) {
                        result.append(trigger)
                    }
                    // `local` is sorted: stop at the next replay, so the work stays within the
                    // result (past the cap the caller refuses the value anyway).
                    for change in local where change >= 0 {
                        guard trigger + change < next else { break }
                        result.append(trigger + change)
                    }
                    if result.count > SymbolEffectDecoding.maximumTriggerCount { break }
                }
                return result
            }
        }
    }
}
