import Foundation
import KilnModel
import KilnRaster
import KilnScene
import XCTest

final class StackLayerTests: XCTestCase {
    func testLayoutAlongEachAxis() {
        let sizes = [SIMD2<Double>(10, 20), SIMD2(30, 10)].map { StackLayer.Slot(size: $0) }
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

    /// A child entering or leaving takes its presence's share of its length and of the spacing
    /// after it; a gone child leaves no gap.
    func testPartlyPresentChildrenShareTheirSlot() {
        let stack = StackLayer(axis: .horizontal, alignment: .center, spacing: .constant(10))
        let slots = [
            StackLayer.Slot(size: SIMD2(20, 20)), StackLayer.Slot(size: SIMD2(40, 40), presence: 0),
            StackLayer.Slot(size: SIMD2(20, 20)),
        ]
        let gone = stack.layout(slots, at: 0)
        XCTAssertEqual(gone.box, SIMD2(50, 20))
        XCTAssertEqual(gone.origins.map(\.x), [0, 30, 30])
        var half = slots
        half[1].presence = 0.5
        let halfway = stack.layout(half, at: 0)
        XCTAssertEqual(halfway.box, SIMD2(75, 20))
        XCTAssertEqual(halfway.origins.map(\.x), [0, 30, 55])
        var present = slots
        present[1].presence = 1
        XCTAssertEqual(stack.layout(present, at: 0).box, SIMD2(100, 40))
        XCTAssertEqual(
            stack.layout([StackLayer.Slot(size: SIMD2(5, 5), presence: 0)], at: 0).box, SIMD2(0, 0))
    }

    /// Baseline alignment puts every baseline (a child without one: its bottom) on one line.
    func testFirstTextBaselineAlignment() {
        let stack = StackLayer(axis: .horizontal, alignment: .firstTextBaseline, spacing: .constant(0))
        let slots = [
            StackLayer.Slot(size: SIMD2(10, 30), baseline: 24), StackLayer.Slot(size: SIMD2(10, 10)),
            StackLayer.Slot(size: SIMD2(10, 60), baseline: 40),
        ]
        let layout = stack.layout(slots, at: 0)
        XCTAssertEqual(layout.origins.map(\.y), [16, 30, 0])
        XCTAssertEqual(layout.box, SIMD2(30, 60))
        XCTAssertEqual(stack.firstBaseline(slots, origins: layout.origins), 40)
    }

    /// In a stack, a layer that leaves shrinks its slot away along its animation: afterwards its
    /// right-hand neighbour has moved over into its place; a text's baseline lines up with a
    /// shape's bottom in a baseline-aligned row.
    func testLeavingChildClosesTheGapAndBaselinesAlign() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 100, "height": 40, "fps": 30, "duration": 3},
             "layers": [{"type": "stack", "spacing": 10, "position": [10, 10], "anchor": [0, 0], "layers": [
                 {"type": "shape", "shape": "rect", "size": [20, 20], "fill": "#ff0000"},
                 {"type": "shape", "shape": "rect", "size": [20, 20], "fill": "#00ff00", "disappear": 1,
                  "transitionAnimation": {"duration": 0.5, "ease": "linear"}},
                 {"type": "shape", "shape": "rect", "size": [20, 20], "fill": "#0000ff"}]}]}
            """)
        XCTAssertEqual(Fixture.render(job, at: 0.5).pixel(x: 70, y: 20), SIMD4(0, 0, 255, 255))
        let after = Fixture.render(job, at: 2)
        XCTAssertEqual(after.pixel(x: 20, y: 20), SIMD4(255, 0, 0, 255))
        XCTAssertEqual(after.pixel(x: 50, y: 20), SIMD4(0, 0, 255, 255))
        XCTAssertEqual(after.pixel(x: 70, y: 20), SIMD4(0, 0, 0, 255))
        let stack = try XCTUnwrap(job.layers.first)
        let midway = stack.stackSlots(at: 1.25, canvas: Canvas(width: 100, height: 40))
        XCTAssertEqual(midway[1].presence, 0.5, accuracy: 1e-9)

        let row = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 300, "height": 100, "fps": 30, "duration": 1},
             "layers": [{"type": "stack", "alignment": "firstTextBaseline", "layers": [
                 {"type": "text", "text": "Hg", "size": 40},
                 {"type": "shape", "size": [20, 20]}]}]}
            """)
        let canvas = Canvas(width: 300, height: 100)
        let node = try XCTUnwrap(row.layers.first)
        let slots = node.stackSlots(at: 0, canvas: canvas)
        let textBaseline = try XCTUnwrap(slots[0].baseline)
        let origins = (node.content as! StackLayer).layout(slots, at: 0).origins
        XCTAssertEqual(origins[1].y + 20, origins[0].y + textBaseline, accuracy: 1e-9)
        XCTAssertEqual(
            node.firstBaseline(at: 0, canvas: canvas) ?? -1, origins[0].y + textBaseline, accuracy: 1e-9)
    }
}
