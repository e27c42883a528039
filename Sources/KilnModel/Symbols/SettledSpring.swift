/// A spring that ends: its progress is exactly 1 from the moment it stays within `tolerance` of
/// its target for good, so an animation built on it comes exactly to rest instead of creeping
/// towards it for ever.
public struct SettledSpring: Sendable, Hashable {
    public let spring: Spring
    /// Seconds after which the progress is exactly 1.
    public let settleTime: Double

    public init(_ spring: Spring, tolerance: Double = 1e-4) {
        self.spring = spring
        // Scanning backwards from a generous bound finds the last moment the spring is still
        // away from its target, overshoots included.
        let step = 1.0 / 1000, limit = 10.0
        var t = limit
        while t > 0, abs(1 - spring.progress(at: t)) < tolerance { t -= step }
        settleTime = min(t + step, limit)
    }

    /// 0 up to the start, exactly 1 from `settleTime` on (a NaN elapsed time counts as 0).
    public func progress(at elapsed: Double) -> Double {
        guard elapsed > 0 else { return 0 }
        return elapsed >= settleTime ? 1 : spring.progress(at: elapsed)
    }
}
