import Foundation

/// Where each effect puts a symbol's poses at one instant (the curves are in `SymbolEffectTiming`).
extension SymbolEffect {
    /// Combines this effect's deviation at `time` into the poses of one drawing.
    func apply(at time: Double, layers: [SymbolLayerInfo], whole: inout SymbolPose, poses: inout [SymbolPose])
    {
        if kind == .variableColor {
            applyVariableColor(at: time, layers: layers, poses: &poses)
            return
        }
        if name.scope == .wholeSymbol {
            whole = whole.combined(with: trackPose(at: time))
        } else {
            for index in poses.indices {
                poses[index] = poses[index].combined(with: trackPose(at: time - stagger(index)))
            }
        }
    }

    /// Job seconds by which layer `index` of a `byLayer` effect lags the first. An indefinite
    /// effect that is not animated switches every layer at once.
    func stagger(_ index: Int) -> Double {
        if case .indefinite = behavior, !animated { return 0 }
        return SymbolEffectTiming.layerStagger * Double(index) / speed
    }

    /// The pose of one track (the whole symbol, or one layer already shifted by its stagger).
    private func trackPose(at time: Double) -> SymbolPose {
        switch kind {
        case .bounce:
            guard let clock = cycleClock(at: time, cycle: SymbolEffectTiming.bounceCycle) else {
                return .rest
            }
            let u = clock.time / SymbolEffectTiming.bounceCycle
            let height = SymbolEffectTiming.bounceHeight(atCycleFraction: u - u.rounded(.down))
            let up = name.direction != .down
            let stretch = 1 + (up ? 1 : -1) * SymbolEffectTiming.bounceStretch * height
            return SymbolPose(
                scale: SIMD2(repeating: stretch), anchor: SIMD2(0.5, up ? 1 : 0),
                offset: SIMD2(0, (up ? -1 : 1) * SymbolEffectTiming.bounceRise * height))
        case .pulse:
            guard let clock = cycleClock(at: time, cycle: SymbolEffectTiming.pulseCycle) else { return .rest }
            let u = clock.time / SymbolEffectTiming.pulseCycle
            return SymbolPose(opacity: SymbolEffectTiming.pulseOpacity(atCycleFraction: u - u.rounded(.down)))
        case .scale:
            let amount = stateAmount(at: time, spring: SymbolEffectTiming.scaleSpring)
            let factor =
                name.direction == .down
                ? SymbolEffectTiming.scaleDownFactor : SymbolEffectTiming.scaleUpFactor
            return SymbolPose(scale: SIMD2(repeating: SymbolEffectTiming.mix(1, factor, amount)))
        case .appear, .disappear:
            let amount = stateAmount(at: time, spring: SymbolEffectTiming.presenceSpring)
            let hidden = kind == .disappear ? amount : SymbolEffectTiming.mix(1, 0, amount)
            return SymbolPresence.hiddenPose(
                hidden, side: SymbolPresence.side(of: name, appearing: kind == .appear))
        case .variableColor:
            return .rest
        }
    }

    // MARK: Cycling effects

    /// Seconds into the effect's run (at its speed) and, when known, where the run ends; nil when
    /// the effect is at rest at `time`. `tail` is how long the effect takes to return to rest
    /// after its last cycle. A trigger (or a new activation) that comes while a run is still
    /// going extends that run instead of restarting it, so nothing jumps: its cycles follow the
    /// cycle under way.
    func cycleClock(at time: Double, cycle: Double, tail: Double = 0) -> (time: Double, end: Double?)? {
        switch behavior {
        case .discrete(let triggers):
            let cycles = Double(repeatCount ?? 1) * cycle
            var origin: Double?
            var end = 0.0
            for trigger in triggers {
                guard trigger <= time else { break }
                if let origin, (trigger - origin) * speed < end + tail {
                    end = Self.boundary(after: (trigger - origin) * speed, cycle: cycle, end: end) + cycles
                } else {
                    origin = trigger
                    end = cycles
                }
            }
            guard let origin else { return nil }
            let clock = (time - origin) * speed
            return clock < end + tail ? (clock, end) : nil
        case .indefinite(let intervals):
            var origin: Double?
            var capEnd: Double?
            var stopEnd: Double?
            var stopped = false
            for interval in intervals {
                guard interval.start <= time else { break }
                // An effect on since for ever cycles from the start of the timeline.
                let start = interval.start.isFinite ? interval.start : 0
                let runEnd = min(capEnd ?? .infinity, stopEnd ?? .infinity)
                if let origin, animated, runEnd.isFinite, (start - origin) * speed < runEnd + tail {
                    // Switched on again while still finishing: it carries on cycling.
                    let boundary = Self.boundary(after: (start - origin) * speed, cycle: cycle, end: runEnd)
                    capEnd = repeatCount.map { boundary + Double($0) * cycle }
                } else {
                    origin = start
                    capEnd = repeatCount.map { Double($0) * cycle }
                }
                stopEnd = nil
                stopped = false
                if let stop = interval.end, stop <= time, let origin {
                    // Switched off: the cycle under way plays to its end (or, not animated, stops).
                    stopped = !animated
                    stopEnd = max(((stop - origin) * speed / cycle - 1e-9).rounded(.up), 1) * cycle
                }
            }
            guard let origin, !stopped, time >= origin else { return nil }
            let clock = (time - origin) * speed
            let end = [capEnd, stopEnd].compactMap { $0 }.min()
            if let end, clock >= end + tail { return nil }
            return (clock, end)
        }
    }

    /// Where the cycles of a trigger that comes at `clock` into a run ending at `end` begin: at
    /// the end of the cycle under way, or at `end` when the run was already winding down.
    private static func boundary(after clock: Double, cycle: Double, end: Double) -> Double {
        clock < end ? max((clock / cycle - 1e-9).rounded(.up), 0) * cycle : end
    }

    // MARK: State effects

    /// 0 (off) … 1 (on) for scale, appear and disappear, moving along `spring` at each switch.
    private func stateAmount(at time: Double, spring: SettledSpring) -> Double {
        guard case .indefinite(let intervals) = behavior else { return 0 }
        var events: [SymbolStateChain.Event] = []
        events.reserveCapacity(intervals.count * 2)
        for interval in intervals {
            events.append(.init(time: interval.start, target: 1))
            if let end = interval.end { events.append(.init(time: end, target: 0)) }
        }
        let speed = speed, animated = animated
        return SymbolStateChain(events: events, initial: 0).value(at: time) { elapsed in
            animated ? spring.progress(at: elapsed * speed) : (elapsed >= 0 ? 1 : 0)
        }
    }

    // MARK: Variable colour

    private func applyVariableColor(at time: Double, layers: [SymbolLayerInfo], poses: inout [SymbolPose]) {
        let ranked = Self.variableOrder(layers)
        guard !ranked.isEmpty else { return }
        let sequence = variableColorSequence(count: ranked.count)
        let step = SymbolEffectTiming.variableColorStep
        guard
            let clock = cycleClock(
                at: time, cycle: Double(sequence.count) * step, tail: SymbolEffectTiming.variableColorFade)
        else { return }
        let floor =
            name.inactiveLayers == .hideInactiveLayers
            ? SymbolEffectTiming.hiddenOpacity : SymbolEffectTiming.dimmedOpacity
        let cumulative = name.fill == .cumulative
        let switchesAtOnce: Bool
        if case .indefinite = behavior { switchesAtOnce = !animated } else { switchesAtOnce = false }
        func lit(_ rank: Int, step index: Int) -> Double {
            let front = sequence[index % sequence.count]
            return (cumulative ? rank <= front : rank == front) ? 1 : 0
        }
        for (rank, layer) in ranked.enumerated() {
            let amount: Double
            if let end = clock.end, clock.time >= end {
                let last = max(Int((end / step).rounded()) - 1, 0)
                let fade = Easing.easeInOut((clock.time - end) / SymbolEffectTiming.variableColorFade)
                amount = SymbolEffectTiming.mix(lit(rank, step: last), 1, fade)
            } else {
                let index = Int(clock.time / step)
                // Switched on without animation, the first lit set shows at once.
                let previous =
                    index == 0 ? (switchesAtOnce ? lit(rank, step: 0) : 1) : lit(rank, step: index - 1)
                let fade = Easing.easeInOut(
                    (clock.time - Double(index) * step) / SymbolEffectTiming.variableColorFade)
                amount = SymbolEffectTiming.mix(previous, lit(rank, step: index), fade)
            }
            poses[layer].opacity *= SymbolEffectTiming.litOpacity(amount, floor: floor)
        }
    }

    /// The rank of the front layer at each step of one cycle: up through the layers, then (reversing)
    /// back down without repeating either end.
    func variableColorSequence(count: Int) -> [Int] {
        let up = Array(0..<count)
        guard name.reversal == .reversing, count > 2 else { return up }
        return up + (1..<(count - 1)).reversed()
    }

    /// The layers variable colour and variable value light, lowest threshold first (drawing order
    /// among equal ones); every layer in drawing order when none is variable.
    static func variableOrder(_ layers: [SymbolLayerInfo]) -> [Int] {
        let variable = layers.indices.filter { layers[$0].variableThreshold != nil }
        guard !variable.isEmpty else { return Array(layers.indices) }
        return variable.sorted {
            let a = layers[$0].variableThreshold ?? 0, b = layers[$1].variableThreshold ?? 0
            return a != b ? a < b : $0 < $1
        }
    }

    // MARK: Search

    /// The latest trigger at or before `time` (binary search: triggers may be many).
    static func latest(_ triggers: [Double], atOrBefore time: Double) -> Double? {
        var low = 0, high = triggers.count
        while low < high {
            let middle = (low + high) / 2
            if triggers[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : triggers[low - 1]
    }

    static func latest(_ intervals: [ActiveInterval], atOrBefore time: Double) -> ActiveInterval? {
        var low = 0, high = intervals.count
        while low < high {
            let middle = (low + high) / 2
            if intervals[middle].start <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : intervals[low - 1]
    }
}
