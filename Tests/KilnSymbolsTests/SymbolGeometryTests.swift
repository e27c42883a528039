import Foundation
import KilnRaster
import KilnSymbols
import XCTest

final class SymbolGeometryTests: XCTestCase {
    private func shapes(_ body: String, viewBox: String = "0 0 100 100") throws -> [SymbolShape] {
        try SymbolTestSupport.parse(
            SymbolTestSupport.document(#"<g id="a">"# + body + "</g>", viewBox: viewBox)
        )
        .layers[0].shapes
    }

    private func corners(_ path: VectorPath) -> Set<SIMD2<Double>> {
        Set(SymbolTestSupport.onCurvePoints(path).map { ($0 * 1e6).rounded(.toNearestOrEven) / 1e6 })
    }

    func testRectRotatedAboutAPoint() throws {
        let shape = try XCTUnwrap(
            shapes(#"<rect x="10" y="20" width="30" height="10" transform="rotate(90 10 20)"/>"#).first)
        XCTAssertEqual(corners(shape.path), [SIMD2(10, 20), SIMD2(10, 50), SIMD2(0, 50), SIMD2(0, 20)])
    }

    func testRectRotatedByAnyAngle() throws {
        let shape = try XCTUnwrap(
            shapes(#"<rect width="20" height="10" transform="translate(50 50) rotate(30)"/>"#).first)
        let (s, c) = (sin(Double.pi / 6), cos(Double.pi / 6))
        let expected: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(20, 0), SIMD2(20, 10), SIMD2(0, 10)].map {
            SIMD2(50 + c * $0.x - s * $0.y, 50 + s * $0.x + c * $0.y)
        }
        let points = SymbolTestSupport.onCurvePoints(shape.path)
        for corner in expected {
            XCTAssertTrue(
                points.contains { abs($0.x - corner.x) < 1e-9 && abs($0.y - corner.y) < 1e-9 }, "\(corner)")
        }
        XCTAssertEqual(abs(SymbolTestSupport.area(shape.path)), 200, accuracy: 1e-9)
    }

    func testTransformListsApplyRightToLeftAndNestInGroups() throws {
        let shape = try XCTUnwrap(
            shapes(
                #"""
                <g transform="translate(10, 0)">
                  <polygon points="5,5 6,5 5,6" transform="scale(2) skewX(45)"/>
                </g>
                """#
            ).first)
        XCTAssertEqual(shape.fill, .nonZero)
        // (5,5): skewX(45) → (10,5), scale(2) → (20,10), translate → (30,10).
        XCTAssertPoint(SymbolTestSupport.onCurvePoints(shape.path)[0], SIMD2(30, 10))
        let second = try shapes(
            #"<polygon points="0,10 1,10 0,11" transform="matrix(1 0 0 1 3 4),scale(1 2)"/>"#)[0]
        XCTAssertPoint(SymbolTestSupport.onCurvePoints(second.path)[0], SIMD2(3, 24))
    }

    func testCircleAndEllipseEncloseTheirArea() throws {
        let all = try shapes(#"<circle cx="50" cy="50" r="20"/><ellipse cx="30" cy="40" rx="10" ry="5"/>"#)
        XCTAssertEqual(all.count, 2)
        XCTAssertEqual(
            abs(SymbolTestSupport.area(all[0].path)), Double.pi * 400, accuracy: Double.pi * 400 * 1e-3)
        XCTAssertEqual(
            abs(SymbolTestSupport.area(all[1].path)), Double.pi * 50, accuracy: Double.pi * 50 * 1e-3)
        let box = try XCTUnwrap(all[0].bounds)
        XCTAssertPoint(box.min, SIMD2(30, 30), accuracy: 1e-6)
        XCTAssertPoint(box.max, SIMD2(70, 70), accuracy: 1e-6)
    }

    func testRoundedRectRadiiFollowSVGDefaultsAndClamping() throws {
        let all = try shapes(
            #"<rect width="40" height="20" rx="4"/><rect width="40" height="20" ry="30"/><rect width="40" height="20"/>"#
        )
        // rx alone: ry = rx = 4, so each corner lacks (1 − π/4)·16 of the box.
        XCTAssertEqual(abs(SymbolTestSupport.area(all[0].path)), 800 - (4 - Double.pi) * 16, accuracy: 0.05)
        // ry alone = 30 → rx = 30 too, clamped to 20 and 10: a capsule-like box.
        XCTAssertEqual(abs(SymbolTestSupport.area(all[1].path)), 800 - (4 - Double.pi) * 200, accuracy: 0.5)
        XCTAssertEqual(abs(SymbolTestSupport.area(all[2].path)), 800, accuracy: 1e-9)
    }

    func testLinePolylineAndPolygon() throws {
        let all = try shapes(
            #"""
            <line x1="1" y1="2" x2="30" y2="40" stroke="black"/>
            <polyline points="0,0 10,0 10,10" fill="none" stroke="black"/>
            <polygon points="0,0 10,0 10,10"/>
            """#)
        XCTAssertNil(all[0].fill, "a line is never filled")
        XCTAssertNotNil(all[0].stroke)
        XCTAssertEqual(SymbolTestSupport.onCurvePoints(all[0].path), [SIMD2(1, 2), SIMD2(30, 40)])
        XCTAssertEqual(
            SymbolTestSupport.onCurvePoints(all[1].path), [SIMD2(0, 0), SIMD2(10, 0), SIMD2(10, 10)])
        XCTAssertNotEqual(all[1].path.elements.last, .close)
        XCTAssertEqual(all[2].path.elements.last, .close)
    }

    func testPathDataIsTransformedIntoTheNormalisedViewBox() throws {
        let shape = try XCTUnwrap(shapes(#"<path d="M1 2 h3 v4 z"/>"#, viewBox: "0 0 10 10").first)
        XCTAssertEqual(
            SymbolTestSupport.onCurvePoints(shape.path), [SIMD2(10, 20), SIMD2(40, 20), SIMD2(40, 60)])
    }

    func testLineWithoutStrokeDrawsNothing() throws {
        let text = SymbolTestSupport.document(
            #"<g id="a"><line x1="0" y1="0" x2="5" y2="5"/><rect width="1" height="1"/></g>"#)
        XCTAssertEqual(try SymbolTestSupport.parse(text).layers[0].shapes.count, 1)
    }

    func testStrokeWidthScalesWithTransformsAndTheViewBox() throws {
        let shape = try XCTUnwrap(
            shapes(
                #"<path d="M0 0 L10 0" fill="none" stroke="black" stroke-width="3" transform="scale(2)"/>"#,
                viewBox: "0 0 50 50"
            ).first)
        XCTAssertEqual(try XCTUnwrap(shape.stroke).width, 12, accuracy: 1e-12)
        // Uneven scale: the geometric mean of the two factors.
        let uneven = try XCTUnwrap(
            shapes(#"<path d="M0 0 L10 0" fill="none" stroke="black" transform="scale(4 1)"/>"#).first)
        XCTAssertEqual(try XCTUnwrap(uneven.stroke).width, 2, accuracy: 1e-12)
    }
}
