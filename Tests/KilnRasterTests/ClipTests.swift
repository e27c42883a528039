import Foundation
import KilnRaster
import XCTest

final class ClipTests: XCTestCase {
    /// Clipping a white band in place leaves exactly the coverage the painter paints, and the
    /// interior fast path matches the distance-based edge path.
    func testClipInPlaceMatchesPaintedCoverage() {
        for angle in [0.0, 0.21, 0.9] {
            let place = Affine2D.translation(70, 50).concatenating(
                .rotation(sin: sin(angle), cos: cos(angle))
            )
            .concatenating(.translation(-45, -30))
            guard
                let painter = RoundedRectPainter(
                    size: SIMD2(90, 60), cornerRadius: 12, frameFromLocal: place, fill: SIMD4(1, 1, 1, 1),
                    stroke: SIMD4(), strokeWidth: 0, frameWidth: 150, frameHeight: 100)
            else { return XCTFail("empty painter") }
            let painted = PlanarBand(width: 150, rows: 100)
            painter.paint(into: painted, firstRow: 0, rows: 100)
            let clipped = PlanarBand(width: 150, rows: 100)
            clipped.fill(PremultipliedColor(r: 1, g: 1, b: 1, a: 1), rows: 100)
            painter.clip(clipped, firstRow: 0, rows: 100, columns: 0..<150)
            var worst: Float = 0
            for y in 0..<100 {
                for x in 0..<150 {
                    worst = max(worst, abs(painted.pixel(x: x, row: y).a - clipped.pixel(x: x, row: y).a))
                }
            }
            XCTAssertLessThan(worst, 1e-6, "angle \(angle)")
        }
    }
}
