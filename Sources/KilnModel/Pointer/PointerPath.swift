/// The cursor's path through an event log: a cubic Hermite curve through every event's position
/// at its exact time. It comes to rest at clicks, taps, keys and the ends (ease out and in), and
/// glides through moves and drags with Catmull-Rom velocities (the neighbours' secant) limited
/// per axis as a monotone curve is (Fritsch–Carlson), so it never overshoots an event or loops
/// between two close ones: a recorded wobble is not amplified. A move between events further
/// apart than `moveDuration` waits, then takes `moveDuration`, as a hand does.
public struct PointerPath: Sendable {
    struct Knot: Sendable {
        var time: Double
        var position: SIMD2<Double>
        var velocity: SIMD2<Double>
    }

    let knots: [Knot]
    public let moveDuration: Double

    public init(events: [PointerEvent], moveDuration: Double) {
        self.moveDuration = moveDuration
        let placed = events.compactMap { event in event.position.map { (event, $0) } }
        var knots = placed.map { Knot(time: $0.0.time, position: $0.1, velocity: .zero) }
        // The slope a segment moves at, over the part of it spent moving.
        func slope(_ i: Int) -> SIMD2<Double> {
            (knots[i + 1].position - knots[i].position) / min(knots[i + 1].time - knots[i].time, moveDuration)
        }
        func waits(_ i: Int) -> Bool { knots[i + 1].time - knots[i].time > moveDuration }
        if knots.count > 2 {
            for i in 1..<(knots.count - 1) {
                let kind = placed[i].0.kind
                guard kind == .move || kind == .drag, !waits(i - 1), !waits(i) else { continue }
                let before = slope(i - 1), after = slope(i)
                let chord =
                    (knots[i + 1].position - knots[i - 1].position) / (knots[i + 1].time - knots[i - 1].time)
                var velocity = SIMD2<Double>.zero
                for axis in 0..<2 where before[axis] * after[axis] > 0 {
                    let bound = 3 * min(abs(before[axis]), abs(after[axis]))
                    velocity[axis] = min(max(chord[axis], -bound), bound)
                }
                knots[i].velocity = velocity
            }
        }
        self.knots = knots
    }

    public var isEmpty: Bool { knots.isEmpty }

    /// The pointer's position at `time`: the first event's before it, the last one's after it.
    public func position(at time: Double) -> SIMD2<Double>? {
        guard let first = knots.first, let last = knots.last else { return nil }
        if !(time > first.time) { return first.position }
        if time >= last.time { return last.position }
        var low = 0, high = knots.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if knots[middle].time <= time { low = middle } else { high = middle }
        }
        let a = knots[low], b = knots[high]
        let start = max(a.time, b.time - moveDuration)
        guard time > start else { return a.position }
        let h = b.time - start, s = (time - start) / h
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        return a.position * h00 + a.velocity * (h10 * h) + b.position * h01 + b.velocity * (h11 * h)
    }
}

/// When the pointer is pressed and which indicators and key badges show at a moment.
public struct PointerTimeline: Sendable {
    public let presses: [PointerEvent]
    public let drags: [ClosedRange<Double>]
    public let keys: [PointerEvent]
    /// How long a click's ring (a tap's ripple) lasts, seconds.
    public let ringDuration: Double
    /// How long a key badge stays, seconds.
    public let keyDuration: Double

    /// The press eases in this long before a click (the finger goes down) …
    public static let pressIn = 0.06
    /// … and out this long after it.
    public static let pressOut = 0.2

    public init(log: PointerEventLog, ringDuration: Double, keyDuration: Double) {
        presses = log.presses
        drags = log.drags
        keys = log.events.filter { $0.kind == .key }
        self.ringDuration = ringDuration
        self.keyDuration = keyDuration
    }

    public init(clicks: [Double], ringDuration: Double) {
        presses = clicks.map { PointerEvent(time: $0, position: .zero, kind: .click) }
        drags = []
        keys = []
        self.ringDuration = ringDuration
        keyDuration = 0
    }

    public static func smoothstep(_ x: Double) -> Double {
        let c = min(max(x, 0), 1)
        return c * c * (3 - 2 * c)
    }

    /// 0 (up) … 1 (fully pressed).
    public func press(at time: Double) -> Double {
        var amount = 0.0
        for drag in drags {
            let rise = Self.smoothstep((time - drag.lowerBound + Self.pressIn) / Self.pressIn)
            let fall = 1 - Self.smoothstep((time - drag.upperBound) / Self.pressOut)
            amount = max(amount, min(rise, fall))
        }
        // Presses are in time order: only those within reach of `time` are looked at.
        let first = firstPress(after: time - Self.pressOut)
        for press in presses[first...] {
            if press.time - Self.pressIn > time { break }
            let rise = Self.smoothstep((time - press.time + Self.pressIn) / Self.pressIn)
            let fall = 1 - Self.smoothstep((time - press.time) / Self.pressOut)
            amount = max(amount, min(rise, fall))
        }
        return amount
    }

    /// The presses whose indicator shows at `time`, with its age: from 0 at the press's own time
    /// (the first frame at or after it shows the ring) to `ringDuration`.
    public func indicators(at time: Double) -> [(event: PointerEvent, age: Double)] {
        var result: [(PointerEvent, Double)] = []
        for press in presses[firstPress(after: time - ringDuration)...] {
            if press.time > time { break }
            let age = time - press.time
            if age < ringDuration { result.append((press, age)) }
        }
        return result
    }

    /// The key badge at `time`: the latest key event still within `keyDuration`, and its age.
    public func badge(at time: Double) -> (event: PointerEvent, age: Double)? {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let key = keys[low - 1], age = time - key.time
        return age < keyDuration ? (key, age) : nil
    }

    /// The index of the first press later than `time`.
    private func firstPress(after time: Double) -> Int {
        var low = 0, high = presses.count
        while low < high {
            let middle = (low + high) / 2
            if presses[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
