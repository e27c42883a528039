import Foundation
import KilnModel
import KilnRaster
import KilnScene
import XCTest

final class StackLayerTests: XCTestCase {
    func testLayoutAlongEachAxis() {
        let sizes = [SIMD2<Double>(10, 20), SIMD2(30, 10)]
        let row = StackLayer(axis: .horizontal, alignment: .center, spacing: .constant(5)).layout(
            sizes, at: 0)
        XCTAssertEqual(row.box, SIMD2(45, 20))
        XCTAssertEqual(row.origins, [SIMD2(0, 0), SIMD2(15, 5)])
        let column = StackLayer(axis: .vertical, alignment: .trailing, spacing: .constant(2)).layout(
            sizes, at: 0)
        XCTAssertEqual(column.box, SIMD2(30, 32))
        XCTAssertEqual(column.origins, [SIMD2(20, 0), SIMD2(0, 22)])
        XCTAssertEqual(StackLayer(axis: .vertical).layout([], at: 0).box, SIMD2(0, 0))
    }

    /// A stack centred in the frame puts each child in its slot; a rotated child stays in its slot.
    func testChildrenLandInTheirSlots() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 100, "height": 40, "fps": 30, "duration": 1},
             "layers": [{"type": "stack", "spacing": 10, "layers": [
                 {"type": "shape", "shape": "rect", "size": [20, 20], "fill": "#ff0000"},
                 {"type": "shape", "shape": "rect", "size": [20, 20], "fill": "#00ff00", "rotation": 45},
                 {"type": "shape", "shape": "rect", "size": [20, 20], "fill": "#0000ff"}]}]}
            """)
        // Box 80×20 centred: slots start at x = 10, 40, 70; rows 10…30.
        let frame = Fixture.render(job)
        XCTAssertEqual(frame.pixel(x: 20, y: 20), SIMD4(255, 0, 0, 255))
        XCTAssertEqual(frame.pixel(x: 50, y: 20), SIMD4(0, 255, 0, 255))
        XCTAssertEqual(frame.pixel(x: 80, y: 20), SIMD4(0, 0, 255, 255))
        XCTAssertEqual(frame.pixel(x: 5, y: 20), SIMD4(0, 0, 0, 255))
        XCTAssertEqual(frame.pixel(x: 35, y: 20), SIMD4(0, 0, 0, 255))
    }
}
