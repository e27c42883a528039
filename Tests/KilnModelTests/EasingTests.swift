import KilnModel
import XCTest

final class EasingTests: XCTestCase {
    let all: [Easing] = [
        .linear, .easeIn, .easeOut, .easeInOut, .cubicBezier(0.25, 0.1, 0.25, 1), .cubicBezier(1, 0, 0, 1),
    ]

    func testEndpointsAndClamping() {
        for easing in all {
            XCTAssertEqual(easing(0), 0, accuracy: 1e-12, "\(easing)")
            XCTAssertEqual(easing(1), 1, accuracy: 1e-12, "\(easing)")
            XCTAssertEqual(easing(-0.5), 0, "\(easing)")
            XCTAssertEqual(easing(1.5), 1, "\(easing)")
        }
    }

    /// A NaN fraction (a zero-length segment's 0/0) gives the start, never NaN.
    func testNaNFractionGivesTheStart() {
        for easing in all + [.cubicBezier(0.5, 10, 0.5, -10)] {
            XCTAssertEqual(easing(.nan), 0, "\(easing)")
        }
    }

    /// The y range the decoder allows keeps every curve finite and within it.
    func testExtremeAllowedControlsStayBounded() {
        let steep = Easing.cubicBezier(0, 10, 1, -10)
        for step in 0...1000 {
            let y = steep(Double(step) / 1000)
            XCTAssertTrue(y.isFinite && abs(y) <= 10, "\(y)")
        }
    }

    func testMonotonic() {
        for easing in all {
            var previous = 0.0
            for step in 1...1000 {
                let value = easing(Double(step) / 1000)
                XCTAssertGreaterThanOrEqual(value, previous - 1e-12, "\(easing) at step \(step)")
                previous = value
            }
        }
    }

    func testNamedCurvesAreTheCSSBeziers() {
        for step in 0...100 {
            let x = Double(step) / 100
            XCTAssertEqual(Easing.easeInOut(x), Easing.cubicBezier(0.42, 0, 0.58, 1)(x), accuracy: 1e-12)
            XCTAssertEqual(Easing.easeIn(x), Easing.cubicBezier(0.42, 0, 1, 1)(x), accuracy: 1e-12)
            XCTAssertEqual(Easing.easeOut(x), Easing.cubicBezier(0, 0, 0.58, 1)(x), accuracy: 1e-12)
        }
        XCTAssertEqual(Easing.easeInOut(0.5), 0.5, accuracy: 1e-9)
    }

    func testKnownValueOfCSSEase() {
        XCTAssertEqual(Easing.cubicBezier(0.25, 0.1, 0.25, 1)(0.5), 0.8024033877399112, accuracy: 1e-7)
    }

    func testSolverIsAccurateWhereNewtonStalls() {
        // (1, 0, 0, 1) has a vertical tangent at x = 0.5; y must still satisfy the curve.
        let easing = Easing.cubicBezier(1, 0, 0, 1)
        XCTAssertEqual(easing(0.5), 0.5, accuracy: 1e-7)
        // Cross-check against a brute-force inversion of x(t).
        for x in [0.01, 0.2, 0.49, 0.51, 0.8, 0.99] {
            var low = 0.0, high = 1.0
            for _ in 0..<200 {
                let t = (low + high) / 2
                let curveX = 3 * (1 - t) * (1 - t) * t * 1 + 3 * (1 - t) * t * t * 0 + t * t * t
                if curveX < x { low = t } else { high = t }
            }
            let t = (low + high) / 2
            let expected = 3 * (1 - t) * t * t + t * t * t
            XCTAssertEqual(easing(x), expected, accuracy: 1e-7, "x = \(x)")
        }
    }
}
