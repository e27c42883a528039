import Foundation

/// A damped harmonic spring released at rest, parametrised like SwiftUI's springs.
public struct Spring: Sendable, Hashable {
    /// Period in seconds of the undamped oscillation (ω0 = 2π / response).
    public var response: Double
    /// ζ: below 1 overshoots and oscillates, 1 is critically damped, above 1 creeps in slowly.
    public var dampingFraction: Double

    public init(response: Double, dampingFraction: Double) {
        self.response = response
        self.dampingFraction = dampingFraction
    }

    /// SwiftUI's perceptual parametrisation: bounce 0 is critically damped, positive values
    /// bounce, negative values are over-damped.
    public init(duration: Double, bounce: Double) {
        self.response = duration
        self.dampingFraction = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    }

    /// SwiftUI's default spring.
    public static let `default` = Spring(response: 0.55, dampingFraction: 1.0)

    /// Fraction of the way from start to target after `elapsed` seconds, starting at rest: 0 at 0,
    /// tending to 1. Closed-form solutions, so frames never accumulate integration error.
    /// Always finite: where the formulas overflow (a response so short that ω is infinite, an
    /// elapsed time so long that ωt is) the spring has long settled, at 1.
    public func progress(at elapsed: Double) -> Double {
        guard elapsed > 0 else { return 0 }
        guard response > 0 else { return 1 }
        let value = unguardedProgress(at: elapsed)
        return value.isFinite ? value : 1
    }

    private func unguardedProgress(at elapsed: Double) -> Double {
        let omega = 2 * Double.pi / response
        let zeta = max(dampingFraction, 0)
        let t = elapsed
        // Within this band the three formulas agree to far better than a frame can show, and
        // the critical one avoids dividing by a vanishing √|1 − ζ²|.
        if abs(zeta - 1) < 1e-6 {
            return 1 - exp(-omega * t) * (1 + omega * t)
        }
        if zeta < 1 {
            let dampedOmega = omega * (1 - zeta * zeta).squareRoot()
            let envelope = exp(-zeta * omega * t)
            return 1 - envelope * (cos(dampedOmega * t) + zeta * omega / dampedOmega * sin(dampedOmega * t))
        }
        let root = (zeta * zeta - 1).squareRoot()
        // The slow root is written as 1/(ζ + √(ζ²−1)) to avoid cancellation for large ζ.
        let slow = -omega / (zeta + root)
        let fast = -omega * (zeta + root)
        return 1 - (fast * exp(slow * t) - slow * exp(fast * t)) / (fast - slow)
    }
}
