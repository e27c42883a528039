import Foundation
import KilnRaster
import XCTest

final class Affine2DTests: XCTestCase {
    func testComposeInvertApply() {
        let m = Affine2D.translation(10, -4)
            .concatenating(.rotation(sin: 0.6, cos: 0.8))
            .concatenating(.skew(tanX: 0.25, tanY: -0.1))
            .concatenating(.scale(2, 0.5))
        let p = SIMD2(3.5, -7.25)
        let q = m.apply(p)
        // Applying step by step equals applying the product.
        let steps = Affine2D.translation(10, -4).apply(
            Affine2D.rotation(sin: 0.6, cos: 0.8).apply(
                Affine2D.skew(tanX: 0.25, tanY: -0.1).apply(Affine2D.scale(2, 0.5).apply(p))))
        XCTAssertEqual(q.x, steps.x, accuracy: 1e-12)
        XCTAssertEqual(q.y, steps.y, accuracy: 1e-12)
        let back = try! XCTUnwrap(m.inverted).apply(q)
        XCTAssertEqual(back.x, p.x, accuracy: 1e-12)
        XCTAssertEqual(back.y, p.y, accuracy: 1e-12)
        XCTAssertNil(Affine2D.scale(0, 1).inverted)
    }

    /// Positive angles turn clockwise on screen (y down): +x goes towards +y.
    func testRotationDirection() {
        let quarter = Affine2D.rotation(sin: 1, cos: 0).apply(SIMD2(1, 0))
        XCTAssertEqual(quarter.x, 0, accuracy: 1e-15)
        XCTAssertEqual(quarter.y, 1, accuracy: 1e-15)
    }

    func testBounds() {
        let b = Affine2D.rotation(sin: 1, cos: 0).concatenating(.translation(-1, -2)).bounds(
            ofSize: SIMD2(2, 4))
        XCTAssertEqual(b.min, SIMD2(-2, -1))
        XCTAssertEqual(b.max, SIMD2(2, 1))
    }
}
