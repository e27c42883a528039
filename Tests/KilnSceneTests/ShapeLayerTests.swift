import Foundation
import KilnModel
import KilnRaster
import KilnScene
import XCTest

final class ShapeLayerTests: XCTestCase {
    func testShapeParametersAreValidated() {
        XCTAssertThrowsError(
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "layers": [{"type": "shape", "shape": "triangle", "size": [10, 10], "rotaton": 5, "skewX": 95}]}
                """)
        ) { error in
            let text = "\(error)"
            for expected in [
                "layers[0].shape", "rect, roundedRect, circle, capsule", "layers[0].rotaton",
                "did you mean 'rotation'",
                "layers[0].skewX", "-89…89",
            ] {
                XCTAssertTrue(text.contains(expected), "missing '\(expected)' in \(text)")
            }
        }
        XCTAssertThrowsError(
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "layers": [{"type": "shape", "shape": "circle"}]}
                """)
        ) { error in XCTAssertTrue("\(error)".contains("layers[0]: missing required key 'size'"), "\(error)")
        }
    }

    /// A circle placed by `position` lands where it is told: centre colour, outside transparent.
    func testCirclePlacement() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 200, "height": 100, "fps": 30, "duration": 1},
             "layers": [{"type": "shape", "shape": "circle", "size": [60, 40], "fill": "#ff0000",
                         "anchor": [0, 0], "position": [20, 10]}]}
            """)
        let frame = Fixture.render(job)
        // Box 60×40 at (20, 10): the circle has diameter 40, centred in the box at (50, 30).
        XCTAssertEqual(frame.pixel(x: 50, y: 30), SIMD4(255, 0, 0, 255))
        XCTAssertEqual(frame.pixel(x: 68, y: 30)[0], 255)
        XCTAssertEqual(frame.pixel(x: 75, y: 30), SIMD4(0, 0, 0, 255))
        XCTAssertEqual(frame.pixel(x: 25, y: 12), SIMD4(0, 0, 0, 255))
    }

    /// Three evenly spaced colours from top to bottom: the ends and the middle take them exactly,
    /// and between stops the colour is the linear mix.
    func testLinearGradientFill() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 40, "height": 200, "fps": 30, "duration": 1},
             "layers": [{"type": "shape", "shape": "rect", "size": [40, 200],
                         "gradient": ["#ff0000", "#00ff00", "#0000ff"]}]}
            """)
        let frame = Fixture.render(job)
        func near(_ p: SIMD4<UInt8>, _ e: SIMD3<Int>, _ tolerance: Int = 2) -> Bool {
            abs(Int(p[0]) - e.x) <= tolerance && abs(Int(p[1]) - e.y) <= tolerance
                && abs(Int(p[2]) - e.z) <= tolerance
        }
        XCTAssertTrue(near(frame.pixel(x: 20, y: 0), SIMD3(254, 1, 0)), "\(frame.pixel(x: 20, y: 0))")
        XCTAssertTrue(near(frame.pixel(x: 20, y: 100), SIMD3(0, 255, 0)), "\(frame.pixel(x: 20, y: 100))")
        XCTAssertTrue(near(frame.pixel(x: 20, y: 199), SIMD3(0, 1, 254)), "\(frame.pixel(x: 20, y: 199))")
        XCTAssertTrue(near(frame.pixel(x: 20, y: 150), SIMD3(0, 127, 128)), "\(frame.pixel(x: 20, y: 150))")
    }
}
