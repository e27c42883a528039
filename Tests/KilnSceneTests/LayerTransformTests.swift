import Foundation
import KilnModel
import KilnScene
import XCTest

final class LayerTransformTests: XCTestCase {
    let canvas = Canvas(width: 1000, height: 600)

    func testDefaultsCentreTheContent() {
        let m = LayerTransform.identity.affine(at: 0, contentSize: SIMD2(200, 100), canvas: canvas)
        XCTAssertEqual(m.apply(SIMD2(100, 50)), SIMD2(500, 300))  // content centre → frame centre
        // Frame-sized content is left where it is.
        let frame = LayerTransform.identity.affine(at: 0, contentSize: SIMD2(1000, 600), canvas: canvas)
        XCTAssertEqual(frame, .identity)
    }

    /// The anchor sits at `position`, and rotation and scale leave it there.
    func testAnchorIsTheFixedPointOfRotationAndScale() {
        let t = LayerTransform(
            position: .constant(Point2(x: 300, y: 200)), anchor: .constant(Point2(x: 0.25, y: 1)),
            scale: .constant(1.5),
            rotation: .constant(33), skewX: .constant(10))
        let m = t.affine(at: 0, contentSize: SIMD2(200, 100), canvas: canvas)
        let anchor = m.apply(SIMD2(50, 100))
        XCTAssertEqual(anchor.x, 300, accuracy: 1e-9)
        XCTAssertEqual(anchor.y, 200, accuracy: 1e-9)
        // 90° clockwise takes the content's +x axis to the frame's +y axis.
        let quarter = LayerTransform(rotation: .constant(90)).affine(
            at: 0, contentSize: SIMD2(10, 10), canvas: canvas)
        let axis = quarter.apply(SIMD2(10, 5)) - quarter.apply(SIMD2(5, 5))
        XCTAssertEqual(axis.x, 0, accuracy: 1e-9)
        XCTAssertEqual(axis.y, 5, accuracy: 1e-9)
    }

    func testAnimatedTransformFollowsTime() {
        let t = LayerTransform(
            position: .keyframes([
                Keyframe(time: 0, value: Point2(x: 0, y: 0)), Keyframe(time: 2, value: Point2(x: 100, y: 40)),
            ]))
        let m = t.affine(at: 1, contentSize: SIMD2(10, 10), canvas: canvas)
        XCTAssertEqual(m.apply(SIMD2(5, 5)), SIMD2(50, 20))
    }
}
