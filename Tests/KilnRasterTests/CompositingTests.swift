import KilnRaster
import XCTest

final class CompositingTests: XCTestCase {
    func testSourceOverMatchesFormula() {
        let src = PlanarBand(width: 13, rows: 2), dst = PlanarBand(width: 13, rows: 2)
        src.fill(PremultipliedColor(r: 0.2, g: 0.1, b: 0.0, a: 0.4), rows: 2)
        dst.fill(PremultipliedColor(r: 0.0, g: 0.5, b: 1.0, a: 1.0), rows: 2)
        Compositing.sourceOver(src, onto: dst, opacity: 0.5, rows: 2)
        let p = dst.pixel(x: 12, row: 1)
        XCTAssertEqual(p.r, 0.1, accuracy: 1e-6)
        XCTAssertEqual(p.g, 0.05 + 0.5 * 0.8, accuracy: 1e-6)
        XCTAssertEqual(p.b, 0.8, accuracy: 1e-6)
        XCTAssertEqual(p.a, 1.0, accuracy: 1e-6)
    }
}
