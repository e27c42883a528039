import Foundation
import KilnModel
import KilnRaster
import KilnScene
import XCTest

final class GroupLayerTests: XCTestCase {
    /// Group opacity applies to the composited children: where two opaque children overlap, the
    /// result equals the top child alone at that opacity (no double blending).
    func testOpacityAppliesToTheGroupAsAWhole() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 64, "height": 32, "fps": 30, "duration": 1},
             "layers": [{"type": "group", "opacity": 0.5, "layers": [
                 {"type": "shape", "shape": "rect", "size": [40, 32], "anchor": [0, 0], "position": [0, 0], "fill": "#ff0000"},
                 {"type": "shape", "shape": "rect", "size": [40, 32], "anchor": [0, 0], "position": [24, 0], "fill": "#0000ff"}]}]}
            """)
        let frame = Fixture.render(job)
        // 255 / 2 = 127.5: the dither picks 127 or 128.
        func near(_ p: SIMD4<UInt8>, _ expected: SIMD4<Int>) -> Bool {
            (0..<4).allSatisfy { abs(Int(p[$0]) - expected[$0]) <= 1 }
        }
        XCTAssertTrue(near(frame.pixel(x: 10, y: 10), SIMD4(128, 0, 0, 255)))
        XCTAssertTrue(near(frame.pixel(x: 30, y: 10), SIMD4(0, 0, 128, 255)), "overlap: blue only, at half")
        XCTAssertTrue(near(frame.pixel(x: 60, y: 10), SIMD4(0, 0, 128, 255)))
    }

    /// Children are placed in the group's box, the box by the group's transform, and the clip
    /// hides what lies outside the clip shape even though the child covers the whole frame.
    func testTransformAndClip() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 100, "height": 100, "fps": 30, "duration": 1},
             "layers": [{"type": "group", "size": [40, 20], "anchor": [0, 0], "position": [10, 30], "clip": "rect",
                         "layers": [{"type": "solid", "color": "#00ff00"},
                                    {"type": "shape", "shape": "rect", "size": [10, 10], "anchor": [0, 0],
                                     "position": [0, 0], "fill": "#ff0000"}]}]}
            """)
        let frame = Fixture.render(job)
        XCTAssertEqual(frame.pixel(x: 12, y: 32), SIMD4(255, 0, 0, 255))  // the child's origin is the box's
        XCTAssertEqual(frame.pixel(x: 40, y: 45), SIMD4(0, 255, 0, 255))  // inside the box
        XCTAssertEqual(frame.pixel(x: 5, y: 45), SIMD4(0, 0, 0, 255))  // clipped away
        XCTAssertEqual(frame.pixel(x: 40, y: 55), SIMD4(0, 0, 0, 255))
    }

    /// A rounded clip is anti-aliased: a pixel on its straight edge is half covered.
    func testClipEdgesAreAntialiased() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 100, "height": 100, "fps": 30, "duration": 1},
             "layers": [{"type": "group", "size": [40, 40], "anchor": [0, 0], "position": [20.5, 20],
                         "clip": "roundedRect", "cornerRadius": 8, "layers": [{"type": "solid", "color": "#ffffff"}]}]}
            """)
        let p = Fixture.render(job).pixel(x: 20, y: 40)
        XCTAssertEqual(Double(p[0]), 127.5, accuracy: 2)
    }

    func testChildrenAreValidatedWithPaths() {
        XCTAssertThrowsError(
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "layers": [{"type": "group", "clip": "star", "layers": [{"type": "solid"}, {"type": "shape", "size": [1, 1], "fil": "#fff"}]},
                            {"type": "group"}]}
                """)
        ) { error in
            let text = "\(error)"
            for expected in [
                "layers[0].clip", "layers[0].layers[0]: missing required key 'color'",
                "layers[0].layers[1].fil",
                "did you mean 'fill'", "layers[1]: missing required key 'layers'",
            ] {
                XCTAssertTrue(text.contains(expected), "missing '\(expected)' in\n\(text)")
            }
        }
    }
}
