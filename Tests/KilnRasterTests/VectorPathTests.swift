import XCTest

@testable import KilnRaster

final class VectorPathTests: XCTestCase {
    func testBuildersStartSubpathsWithMoves() {
        var path = VectorPath()
        path.line(to: SIMD2(1, 0))
        path.close()
        path.line(to: SIMD2(5, 5))
        XCTAssertEqual(
            path.elements, [.move(.zero), .line(SIMD2(1, 0)), .close, .move(.zero), .line(SIMD2(5, 5))])
        var moves = VectorPath()
        moves.move(to: SIMD2(1, 1))
        moves.move(to: SIMD2(2, 2))
        XCTAssertEqual(moves.elements, [.move(SIMD2(2, 2))])
    }

    func testHalfCircleArcLiesOnTheCircle() {
        var path = VectorPath()
        path.move(to: SIMD2(-10, 0))
        path.arc(to: SIMD2(10, 0), radii: SIMD2(10, 10), rotation: 0, largeArc: false, sweep: true)
        let cubics = path.elements.compactMap { element -> [SIMD2<Double>]? in
            guard case .cubic(let c1, let c2, let p) = element else { return nil }
            return [c1, c2, p]
        }
        XCTAssertEqual(cubics.count, 4)
        // Sample each cubic and check the radius.
        var start = SIMD2<Double>(-10, 0)
        for c in cubics {
            for i in 0...16 {
                let t = Double(i) / 16, u = 1 - t
                let q = u * u * u * start + 3 * u * u * t * c[0] + 3 * u * t * t * c[1] + t * t * t * c[2]
                XCTAssertEqual((q * q).sum().squareRoot(), 10, accuracy: 1e-3)
            }
            start = c[2]
        }
        // Sweep 1 from (-10, 0) to (10, 0) goes through y < 0 (angles increase, y down).
        XCTAssertLessThan(cubics[1][2].y, -9.99)
        XCTAssertEqual(path.currentPoint, SIMD2(10, 0))
    }

    func testOutOfRangeRadiiAreScaledUp() {
        var path = VectorPath()
        path.move(to: SIMD2(0, 0))
        path.arc(to: SIMD2(20, 0), radii: SIMD2(1, 1), rotation: 30, largeArc: true, sweep: false)
        // The radii grow to 10: a half circle centred on (10, 0).
        for element in path.elements {
            guard case .cubic(_, _, let p) = element else { continue }
            let d = p - SIMD2(10, 0)
            XCTAssertEqual((d * d).sum().squareRoot(), 10, accuracy: 1e-6)
        }
    }

    func testZeroRadiusArcIsALineAndSamePointArcIsNothing() {
        var path = VectorPath()
        path.move(to: SIMD2(0, 0))
        path.arc(to: SIMD2(5, 5), radii: SIMD2(0, 3), rotation: 0, largeArc: false, sweep: false)
        path.arc(to: SIMD2(5, 5), radii: SIMD2(3, 3), rotation: 0, largeArc: false, sweep: false)
        XCTAssertEqual(path.elements, [.move(.zero), .line(SIMD2(5, 5))])
    }

    func testRotatedEllipticalArc() {
        // A quarter of an ellipse with radii 20, 10 rotated by 90°: from (0, 0) to (10, 20)
        // (the ellipse's long axis is vertical).
        var path = VectorPath()
        path.move(to: SIMD2(0, 0))
        path.arc(to: SIMD2(10, 20), radii: SIMD2(20, 10), rotation: 90, largeArc: false, sweep: false)
        XCTAssertEqual(path.currentPoint, SIMD2(10, 20))
        // Centre (0, 20) or (10, 0); every point of the arc lies on
        // ((x − cx)/10)² + ((y − cy)/20)² = 1 for one of them.
        var from = SIMD2<Double>(0, 0)
        var errors = (0.0, 0.0)
        for case .cubic(let c1, let c2, let p) in path.elements {
            let q = 0.125 * from + 0.375 * c1 + 0.375 * c2 + 0.125 * p
            for (centre, slot) in [(SIMD2<Double>(0, 20), 0), (SIMD2<Double>(10, 0), 1)] {
                let d = (q - centre) / SIMD2(10, 20)
                let e = abs((d * d).sum() - 1)
                if slot == 0 { errors.0 = max(errors.0, e) } else { errors.1 = max(errors.1, e) }
            }
            from = p
        }
        XCTAssertEqual(min(errors.0, errors.1), 0, accuracy: 1e-4)
    }

    func testTransformedAndBounds() {
        let path = VectorPath.rect(origin: SIMD2(1, 2), size: SIMD2(3, 4))
        let moved = path.transformed(by: .translation(10, 20).concatenating(.scale(2, 2)))
        let bounds = moved.controlBounds
        XCTAssertEqual(bounds?.min, SIMD2(12, 24))
        XCTAssertEqual(bounds?.max, SIMD2(18, 32))
        XCTAssertNil(VectorPath().controlBounds)
    }

    func testRoundedRectAndEllipse() {
        let rounded = VectorPath.rect(origin: .zero, size: SIMD2(100, 50), cornerRadii: SIMD2(80, 10))
        // Radii clamp to half the side: 50, 10.
        XCTAssertEqual(rounded.elements.first, .move(SIMD2(50, 0)))
        XCTAssertEqual(rounded.controlBounds?.max, SIMD2(100, 50))
        let ellipse = VectorPath.ellipse(center: SIMD2(5, 5), radii: SIMD2(4, 2))
        XCTAssertEqual(ellipse.controlBounds?.min, SIMD2(1, 3))
        XCTAssertEqual(ellipse.elements.count, 6)
    }

    func testScalarTrigonometry() {
        for i in -40...40 {
            let x = Double(i) * 0.37
            let (s, c) = ScalarTrig.sinCos(x)
            XCTAssertEqual(s * s + c * c, 1, accuracy: 1e-14)
            XCTAssertEqual(ScalarTrig.atan2(s, c), x - 2 * .pi * (x / (2 * .pi)).rounded(), accuracy: 1e-12)
        }
        XCTAssertEqual(ScalarTrig.sinCos(.pi / 6).sin, 0.5, accuracy: 1e-15)
        XCTAssertEqual(ScalarTrig.atan2(1, 1), .pi / 4, accuracy: 1e-15)
        XCTAssertEqual(ScalarTrig.atan2(-1, -1), -3 * .pi / 4, accuracy: 1e-15)
    }
}
