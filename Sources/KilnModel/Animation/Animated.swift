/// A value that may change over time, sampled at absolute job time in seconds.
public enum Animated<Value: Interpolatable>: Sendable {
    case constant(Value)
    /// Sorted by time, at least one. Before the first keyframe the first value holds, after the
    /// last the last value holds.
    case keyframes([Keyframe<Value>])
    /// Holds `from` until `start`, then springs towards `to`.
    case spring(from: Value, to: Value, start: Double, spring: Spring)
    /// The animation run on another clock (since the layer appeared, since a trigger): job time
    /// is mapped through the source before the animation is sampled.
    indirect case retimed(Animated<Value>, TimeSource)
    /// Read from a curve sampled on the timeline (a value driven by the soundtrack).
    case sampled(SampledCurve<Value>)

    public func value(at time: Double) -> Value {
        switch self {
        case .constant(let value):
            return value
        case .keyframes(let keyframes):
            return Self.sample(keyframes, at: time)
        case .spring(let from, let to, let start, let spring):
            if time <= start { return from }
            return Value.interpolate(from, to, spring.progress(at: time - start))
        case .retimed(let animation, let source):
            return animation.value(at: source.localTime(at: time))
        case .sampled(let curve):
            return curve.value(at: time)
        }
    }

    /// True when the value cannot change, so renderers may cache work derived from it.
    public var isConstant: Bool {
        switch self {
        case .constant: true
        case .keyframes(let keyframes): keyframes.count <= 1
        case .spring: false
        case .retimed(let animation, _): animation.isConstant
        case .sampled(let curve): curve.values.count <= 1
        }
    }

    private static func sample(_ keyframes: [Keyframe<Value>], at time: Double) -> Value {
        guard let first = keyframes.first, let last = keyframes.last else {
            preconditionFailure("Animated.keyframes needs at least one keyframe")
        }
        if time <= first.time { return first.value }
        if time >= last.time { return last.value }
        // Binary search for the segment: jobs may hold thousands of keyframes.
        var low = 0
        var high = keyframes.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if keyframes[middle].time <= time { low = middle } else { high = middle }
        }
        let start = keyframes[low], end = keyframes[high]
        let fraction = (time - start.time) / (end.time - start.time)
        return Value.interpolate(start.value, end.value, end.easing(fraction))
    }
}
