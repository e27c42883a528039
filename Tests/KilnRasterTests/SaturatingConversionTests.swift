import KilnRaster
import XCTest

/// Issue 20, part 3: pixel rectangles and indices computed from extreme numbers convert without
/// trapping (each assertion here trapped or hung before the conversions were shared).
final class SaturatingConversionTests: XCTestCase {
    let limit = SaturatingConversion.limit

    func testDoublesSaturateAndNaNTakesItsStandIn() {
        XCTAssertEqual(SaturatingConversion.int(2.5, .up), 3)
        XCTAssertEqual(SaturatingConversion.int(-2.5, .down), -3)
        XCTAssertEqual(SaturatingConversion.int(-2.7), -2)
        XCTAssertEqual(SaturatingConversion.int(Double.infinity, .up), limit)
        XCTAssertEqual(SaturatingConversion.int(-Double.infinity, .down), -limit)
        XCTAssertEqual(SaturatingConversion.int(1e300), limit)
        XCTAssertEqual(SaturatingConversion.int(Double.nan), 0)
        XCTAssertEqual(SaturatingConversion.int(Double.nan, nan: -1), -1)
        XCTAssertEqual(SaturatingConversion.int(Double.nan, in: 3...9), 3)
        XCTAssertEqual(SaturatingConversion.int(1e300, .up, in: 3...9), 9)
        XCTAssertEqual(SaturatingConversion.int(-1e300, .up, in: 3...9), 3)
    }

    func testFloatsSaturateAndNaNTakesItsStandIn() {
        XCTAssertEqual(SaturatingConversion.int(Float(2.5), .up), 3)
        XCTAssertEqual(SaturatingConversion.int(Float.infinity), limit)
        XCTAssertEqual(SaturatingConversion.int(-Float.infinity), -limit)
        XCTAssertEqual(SaturatingConversion.int(Float.nan, .up, in: 0...255), 0)
        XCTAssertEqual(SaturatingConversion.int(Float(1e30), .up, in: 0...255), 255)
    }

    func testAnInfiniteOrNaNTransformCoversNoPixels() {
        let huge = Affine2D(a: .infinity, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        XCTAssertNil(huge.pixelBounds(ofSize: SIMD2(10, 10), frameWidth: 64, frameHeight: 36))
        let nan = Affine2D(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        XCTAssertNil(nan.pixelBounds(ofSize: SIMD2(10, 10), frameWidth: 64, frameHeight: 36))
        XCTAssertNil(huge.inverted)
        XCTAssertNil(Affine2D(a: 1, b: 0, c: 0, d: 1, tx: .infinity, ty: 0).inverted)
    }

    /// Finite but far-off boxes clamp to the frame.
    func testAFarOffTransformClampsToTheFrame() {
        let far = Affine2D(a: 1e300, b: 0, c: 0, d: 1e300, tx: -1e300, ty: -1e300)
        let pixels = far.pixelBounds(ofSize: SIMD2(10, 10), frameWidth: 64, frameHeight: 36)
        XCTAssertEqual(pixels?.rows, 0..<36)
        XCTAssertEqual(pixels?.columns, 0..<64)
    }

    func testARoundedRectWithAnOverflowedTransformIsNotPainted() {
        let overflowed = Affine2D(a: .infinity, b: .nan, c: 0, d: 1, tx: 0, ty: 0)
        XCTAssertNil(
            RoundedRectPainter(
                size: SIMD2(10, 10), cornerRadius: 2, frameFromLocal: overflowed, fill: SIMD4(1, 0, 0, 1),
                stroke: SIMD4(), strokeWidth: 0, frameWidth: 64, frameHeight: 36, gradient: nil))
    }

    /// An infinite shrink halved forever before.
    func testAnInfiniteShrinkPicksTheLastLevel() {
        let choice = ImagePainter.levelChoice(shrink: .infinity, levelCount: 6)
        XCTAssertEqual(choice.level, 5)
        XCTAssertEqual(choice.nextWeight, 0)
        XCTAssertEqual(ImagePainter.levelChoice(shrink: .nan, levelCount: 6).level, 0)
    }
}
