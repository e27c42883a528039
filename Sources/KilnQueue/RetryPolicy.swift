/// Retries and leases (queue.md): transient failures back off `min(1 h, 15 s·2^(n−1))` ±10 %;
/// 5 attempts by default; a lease lasts 60 s and is renewed every 15 s.
public struct RetryPolicy: Sendable {
    public static let defaultAttempts = 5
    public var leaseSeconds: Double = 60
    public var heartbeatSeconds: Double = 15
    public var baseBackoff: Double = 15
    public var maxBackoff: Double = 3600
    public var jitter: Double = 0.1
    /// A fixed point in the jitter band (0…1) instead of a random one, for tests.
    public var fixedJitterUnit: Double?

    public init() {}

    /// Seconds to wait before attempt `n + 1` after attempt `n` failed; `unit` in 0…1 picks the
    /// point in the jitter band (random in production, fixed in tests).
    public func backoff(afterAttempt n: Int, unit: Double? = nil) -> Double {
        let unit = unit ?? fixedJitterUnit ?? Double.random(in: 0...1)
        let exponent = Double(max(0, n - 1))
        let base = min(maxBackoff, baseBackoff * pow2(exponent))
        return base * (1 - jitter + 2 * jitter * unit)
    }

    private func pow2(_ x: Double) -> Double { x >= 30 ? Double(1 << 30) : Double(1 << Int(x)) }
}
