import KilnModel
import XCTest

final class AnimatedTests: XCTestCase {
    func testConstant() {
        let value = Animated<Double>.constant(3)
        XCTAssertEqual(value.value(at: -5), 3)
        XCTAssertEqual(value.value(at: 100), 3)
        XCTAssertTrue(value.isConstant)
    }

    func testKeyframesHoldOutsideAndInterpolateBetween() {
        let value = Animated<Double>.keyframes([
            Keyframe(time: 1, value: 10),
            Keyframe(time: 2, value: 20),
            Keyframe(time: 4, value: 0),
        ])
        XCTAssertFalse(value.isConstant)
        XCTAssertEqual(value.value(at: 0), 10)
        XCTAssertEqual(value.value(at: 1), 10)
        XCTAssertEqual(value.value(at: 1.5), 15, accuracy: 1e-12)
        XCTAssertEqual(value.value(at: 2), 20)
        XCTAssertEqual(value.value(at: 3), 10, accuracy: 1e-12)
        XCTAssertEqual(value.value(at: 4), 0)
        XCTAssertEqual(value.value(at: 9), 0)
    }

    func testEasingShapesTheSegmentEndingAtItsKeyframe() {
        let value = Animated<Double>.keyframes([
            Keyframe(time: 0, value: 0, easing: .easeIn),  // unused: nothing ends here
            Keyframe(time: 1, value: 100, easing: .easeInOut),
            Keyframe(time: 2, value: 200),
        ])
        XCTAssertEqual(value.value(at: 0.25), 100 * Easing.easeInOut(0.25), accuracy: 1e-9)
        XCTAssertLessThan(value.value(at: 0.25), 25)
        XCTAssertEqual(value.value(at: 1.25), 125, accuracy: 1e-9)
    }

    func testSingleKeyframeIsConstant() {
        let value = Animated<Point2>.keyframes([Keyframe(time: 2, value: Point2(x: 1, y: 2))])
        XCTAssertTrue(value.isConstant)
        XCTAssertEqual(value.value(at: 0), Point2(x: 1, y: 2))
    }

    func testSpringHoldsUntilStartThenOvershoots() {
        let value = Animated<Double>.spring(
            from: 0, to: 1, start: 0.5, spring: Spring(response: 0.5, dampingFraction: 0.3))
        XCTAssertEqual(value.value(at: 0), 0)
        XCTAssertEqual(value.value(at: 0.5), 0)
        XCTAssertGreaterThan(value.value(at: 0.5 + 0.27), 1)
        XCTAssertEqual(value.value(at: 20), 1, accuracy: 1e-9)
    }

    func testColorInterpolationIsPremultiplied() {
        let transparentRed = RGBA(r: 1, g: 0, b: 0, a: 0)
        let opaqueBlue = RGBA(r: 0, g: 0, b: 1, a: 1)
        let middle = RGBA.interpolate(transparentRed, opaqueBlue, 0.5)
        XCTAssertEqual(middle, RGBA(r: 0, g: 0, b: 1, a: 0.5))
        let gray = RGBA.interpolate(.black, .white, 0.25)
        XCTAssertEqual(gray.r, 0.25, accuracy: 1e-12)
        XCTAssertEqual(gray.a, 1)
    }

    func testPointInterpolationExtrapolates() {
        XCTAssertEqual(Point2.interpolate(Point2(x: 0, y: 0), Point2(x: 1, y: 2), 1.5), Point2(x: 1.5, y: 3))
    }
}
