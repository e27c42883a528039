import KilnModel
import XCTest

final class SpringTests: XCTestCase {
    func testStartsAtZeroAndSettlesAtOne() {
        for zeta in [0.2, 0.5, 0.825, 1.0, 1.5, 4.0] {
            let spring = Spring(response: 0.5, dampingFraction: zeta)
            XCTAssertEqual(spring.progress(at: 0), 0, "ζ = \(zeta)")
            XCTAssertEqual(spring.progress(at: -1), 0, "ζ = \(zeta)")
            XCTAssertEqual(spring.progress(at: 1e-6), 0, accuracy: 1e-6, "starts at rest, ζ = \(zeta)")
            XCTAssertEqual(spring.progress(at: 30), 1, accuracy: 1e-6, "ζ = \(zeta)")
        }
    }

    /// Responses and times where ω or ωt overflow give the settled value, never NaN.
    func testOverflowingSpringsHaveSettled() {
        for zeta in [0.0, 0.5, 1.0, 4.0] {
            XCTAssertEqual(
                Spring(response: .leastNonzeroMagnitude * 2, dampingFraction: zeta).progress(at: 0.1), 1,
                "ζ = \(zeta)")
            XCTAssertEqual(
                Spring(response: 1e-300, dampingFraction: zeta).progress(at: 1e300), 1, "ζ = \(zeta)")
        }
        XCTAssertTrue(Spring(duration: 10, bounce: -0.999_999).progress(at: 1e6).isFinite)
    }

    func testUnderdampedOvershoots() {
        let spring = Spring(response: 0.5, dampingFraction: 0.3)
        let peak = stride(from: 0.0, through: 2, by: 0.001).map(spring.progress(at:)).max() ?? 0
        XCTAssertGreaterThan(peak, 1.2)
        // First peak of an underdamped oscillator: 1 + exp(-πζ/√(1-ζ²)).
        XCTAssertEqual(peak, 1 + exp(-Double.pi * 0.3 / (1 - 0.09).squareRoot()), accuracy: 1e-4)
    }

    func testCriticallyAndOverdampedNeverOvershoot() {
        for zeta in [1.0, 1.2, 3.0, 10.0] {
            let spring = Spring(response: 0.4, dampingFraction: zeta)
            var previous = 0.0
            for step in 1...5000 {
                let value = spring.progress(at: Double(step) * 0.002)
                XCTAssertLessThanOrEqual(value, 1 + 1e-12, "ζ = \(zeta)")
                XCTAssertGreaterThanOrEqual(value, previous - 1e-12, "monotonic, ζ = \(zeta)")
                previous = value
            }
        }
    }

    func testContinuousAcrossCriticalDamping() {
        let below = Spring(response: 0.55, dampingFraction: 0.999)
        let critical = Spring(response: 0.55, dampingFraction: 1.0)
        let above = Spring(response: 0.55, dampingFraction: 1.001)
        for step in 0...300 {
            let t = Double(step) * 0.01
            XCTAssertEqual(below.progress(at: t), critical.progress(at: t), accuracy: 1e-3, "t = \(t)")
            XCTAssertEqual(above.progress(at: t), critical.progress(at: t), accuracy: 1e-3, "t = \(t)")
        }
    }

    func testDurationBounceMapping() {
        XCTAssertEqual(Spring(duration: 0.5, bounce: 0), Spring(response: 0.5, dampingFraction: 1))
        XCTAssertEqual(Spring(duration: 0.5, bounce: 0.3).dampingFraction, 0.7, accuracy: 1e-12)
        XCTAssertEqual(Spring(duration: 0.5, bounce: -0.5).dampingFraction, 2, accuracy: 1e-12)
        XCTAssertEqual(Spring(duration: 0.8, bounce: 0.3).response, 0.8)
    }

    func testUndampedSpringKeepsOscillating() {
        let spring = Spring(response: 1, dampingFraction: 0)
        XCTAssertEqual(spring.progress(at: 0.5), 2, accuracy: 1e-9)
        XCTAssertEqual(spring.progress(at: 100), 0, accuracy: 1e-9)
    }
}
