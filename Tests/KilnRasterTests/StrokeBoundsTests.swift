import XCTest

@testable import KilnRaster

/// Issue 41, item 3: a stroke keeps only the pieces that reach the frame, and one wider than the
/// frame is a fill of it, so a few kilobytes of huge stroked arcs cost what the frame shows.
final class StrokeBoundsTests: XCTestCase {
    /// 100 circles of radius 450 000 stroked 900 000 wide with round joins, mapped onto 64×36.
    func hugeArcs(count: Int = 100) -> VectorPath {
        var path = VectorPath()
        for i in 0..<count {
            path.move(to: SIMD2(Double(i) * 10, 0))
            path.curve(
                to: SIMD2(Double(i) * 10 + 900_000, 0), control1: SIMD2(Double(i) * 10, 600_000),
                control2: SIMD2(Double(i) * 10 + 900_000, 600_000))
        }
        return path
    }

    func testAStrokeWiderThanTheFrameIsAFillOfIt() throws {
        let style = StrokeStyle(width: 900_000, cap: .round, join: .round)
        let map = Affine2D.translation(32, 18).concatenating(.scale(0.3, 0.3))
        let painter = try XCTUnwrap(
            PathPainter(
                path: hugeArcs(), fillRule: .nonZero, stroke: style, frameFromLocal: map,
                paint: .solid(SIMD4(1, 1, 1, 1)), frameWidth: 64, frameHeight: 36))
        // The whole frame, as four edges (two of them horizontal, which are not kept).
        XCTAssertLessThanOrEqual(painter.edges.edges.count, 4)
        let band = PlanarBand(width: 64, rows: 36)
        band.fill(.transparent, rows: 36)
        painter.paint(into: band, firstRow: 0, rows: 36, columns: 0..<64)
        XCTAssertEqual(band.pixel(x: 0, row: 0).a, 1, accuracy: 1e-6)
        XCTAssertEqual(band.pixel(x: 63, row: 35).a, 1, accuracy: 1e-6)
    }

    func testPiecesOutsideTheFrameAreNotKept() throws {
        // A thin stroked polyline of 10 000 points, all but one segment far to the right.
        var path = VectorPath()
        path.move(to: SIMD2(10, 10))
        for i in 0..<10_000 { path.line(to: SIMD2(1_000 + Double(i), Double(i % 2) * 50)) }
        let style = StrokeStyle(width: 2, cap: .round, join: .round)
        let painter = try XCTUnwrap(
            PathPainter(
                path: path, fillRule: .nonZero, stroke: style, frameFromLocal: .identity,
                paint: .solid(SIMD4(1, 1, 1, 1)), frameWidth: 64, frameHeight: 36))
        XCTAssertLessThan(painter.edges.edges.count, 200)
    }

    func testTheFlattenedPointCountIsWhatFlatteningMakes() {
        var path = hugeArcs(count: 3)
        path.quadCurve(to: SIMD2(5, 5), control: SIMD2(40, -30))
        path.close()
        path.line(to: SIMD2(1, 1))
        for tolerance in [0.01, 0.1, 10, 1e4] {
            let made = path.polylines(tolerance: tolerance).reduce(0) { $0 + $1.points.count }
            XCTAssertEqual(path.flattenedPointCount(tolerance: tolerance), made, "tolerance \(tolerance)")
        }
    }
}
