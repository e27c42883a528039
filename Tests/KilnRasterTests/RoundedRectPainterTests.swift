import Foundation
import KilnRaster
import XCTest

final class RoundedRectPainterTests: XCTestCase {
    /// Paints a shape over a whole small frame, band by band, and returns alpha per pixel.
    func coverage(_ painter: RoundedRectPainter, width: Int, height: Int) -> [Float] {
        let band = PlanarBand(width: width, rows: 8)
        var alpha = [Float](repeating: 0, count: width * height)
        for first in stride(from: 0, to: height, by: 8) {
            let rows = min(8, height - first)
            painter.paint(into: band, firstRow: first, rows: rows)
            for row in 0..<rows {
                for x in 0..<width { alpha[(first + row) * width + x] = band.pixel(x: x, row: row).a }
            }
        }
        return alpha
    }

    /// A card rotated by 20° about its centre: every pixel's coverage against the exact area of
    /// the pixel square inside the rectangle (by 64×64 sampling in Double).
    func testRotatedCardEdgeCoverageMatchesAnalyticArea() throws {
        let (w, h) = (120.0, 80.0)
        let angle = 20.0 * Double.pi / 180
        let place = Affine2D.translation(64, 48).concatenating(.rotation(sin: sin(angle), cos: cos(angle)))
            .concatenating(.translation(-w / 2, -h / 2))
        let painter = try XCTUnwrap(
            RoundedRectPainter(
                size: SIMD2(w, h), cornerRadius: 0, frameFromLocal: place, fill: SIMD4(1, 1, 1, 1),
                stroke: SIMD4(),
                strokeWidth: 0, frameWidth: 128, frameHeight: 96))
        let alpha = coverage(painter, width: 128, height: 96)
        let inverse = try XCTUnwrap(place.inverted)
        var edgePixels = 0
        var sumError = 0.0, worst = 0.0
        for y in 0..<96 {
            for x in 0..<128 {
                var inside = 0
                for sy in 0..<64 {
                    for sx in 0..<64 {
                        let p = inverse.apply(
                            SIMD2(Double(x) + (Double(sx) + 0.5) / 64, Double(y) + (Double(sy) + 0.5) / 64))
                        if p.x >= 0 && p.x <= w && p.y >= 0 && p.y <= h { inside += 1 }
                    }
                }
                let exact = Double(inside) / 4096
                let error = abs(Double(alpha[y * 128 + x]) - exact)
                worst = max(worst, error)
                if exact > 0 && exact < 1 {
                    edgePixels += 1
                    sumError += error
                }
            }
        }
        XCTAssertGreaterThan(edgePixels, 300)
        XCTAssertLessThan(sumError / Double(edgePixels), 0.02, "mean edge coverage error")
        XCTAssertLessThan(worst, 0.1, "largest coverage error")
    }

    /// A circle's area (sum of coverage) equals πr² closely; a stroke adds its ring.
    func testCircleAreaAndStroke() throws {
        let r = 30.0
        let fillOnly = try XCTUnwrap(
            RoundedRectPainter(
                size: SIMD2(2 * r, 2 * r), cornerRadius: r, frameFromLocal: .translation(20.3, 17.8),
                fill: SIMD4(1, 1, 1, 1), stroke: SIMD4(), strokeWidth: 0, frameWidth: 100, frameHeight: 100))
        let area = coverage(fillOnly, width: 100, height: 100).reduce(0) { $0 + Double($1) }
        XCTAssertEqual(area, Double.pi * r * r, accuracy: 2.0)
        let ring = try XCTUnwrap(
            RoundedRectPainter(
                size: SIMD2(2 * r, 2 * r), cornerRadius: r, frameFromLocal: .translation(20.3, 17.8),
                fill: SIMD4(), stroke: SIMD4(1, 1, 1, 1), strokeWidth: 4, frameWidth: 100, frameHeight: 100))
        let ringArea = coverage(ring, width: 100, height: 100).reduce(0) { $0 + Double($1) }
        XCTAssertEqual(ringArea, Double.pi * (32 * 32 - 28 * 28), accuracy: 3.0)
    }

    func testNothingVisibleGivesNil() {
        XCTAssertNil(
            RoundedRectPainter(
                size: SIMD2(0, 10), cornerRadius: 0, frameFromLocal: .identity, fill: SIMD4(1, 1, 1, 1),
                stroke: SIMD4(),
                strokeWidth: 0, frameWidth: 10, frameHeight: 10))
        XCTAssertNil(
            RoundedRectPainter(
                size: SIMD2(5, 5), cornerRadius: 0, frameFromLocal: .translation(500, 500),
                fill: SIMD4(1, 1, 1, 1),
                stroke: SIMD4(), strokeWidth: 0, frameWidth: 10, frameHeight: 10))
    }
}
