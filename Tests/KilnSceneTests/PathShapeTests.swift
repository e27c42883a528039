import Foundation
import KilnModel
import KilnRaster
import KilnScene
import XCTest

final class PathShapeTests: XCTestCase {
    func job(_ layer: String, width: Int = 64, height: Int = 64) throws -> Job {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#000000"}, \(layer)]}
            """)
    }

    func testPathErrorsNameTheKeyAndOffset() {
        XCTAssertThrowsError(
            try job(#"{"type": "shape", "shape": "path", "size": [10, 10], "path": "M 0 0 L 5 5 L x"}"#)
        ) { error in
            XCTAssertTrue(
                "\(error)".contains("layers[1].path: expected a number after 'L' at offset 14"), "\(error)")
        }
        XCTAssertThrowsError(try job(#"{"type": "shape", "shape": "path", "size": [10, 10]}"#)) { error in
            XCTAssertTrue("\(error)".contains("layers[1].path"), "\(error)")
        }
        XCTAssertThrowsError(
            try job(#"{"type": "shape", "shape": "circle", "size": [10, 10], "path": "M0 0L1 1"}"#)
        ) { error in
            XCTAssertTrue("\(error)".contains("only used with"), "\(error)")
        }
        XCTAssertThrowsError(
            try job(
                #"{"type": "shape", "shape": "path", "size": [10, 10], "path": "M0 0", "fillRule": "odd"}"#)
        ) { error in
            XCTAssertTrue("\(error)".contains("layers[1].fillRule"), "\(error)")
        }
    }

    /// A square ring drawn even-odd: the hole shows the background; non-zero fills it. The path
    /// is in the box's pixels, placed by the transform (anchor at the top-left here).
    func testFillRulesAndPlacement() throws {
        let ring = "M0 0H40V40H0Z M10 10H30V30H10Z"
        for (rule, hole) in [("evenOdd", SIMD4<UInt8>(0, 0, 0, 255)), ("nonZero", SIMD4(255, 0, 0, 255))] {
            let frame = Fixture.render(
                try job(
                    """
                    {"type": "shape", "shape": "path", "size": [40, 40], "path": "\(ring)", "fillRule": "\(rule)",
                     "fill": "#ff0000", "anchor": [0, 0], "position": [12, 12]}
                    """))
            XCTAssertEqual(frame.pixel(x: 32, y: 32), hole, rule)
            XCTAssertEqual(frame.pixel(x: 15, y: 15), SIMD4(255, 0, 0, 255), rule)
            XCTAssertEqual(frame.pixel(x: 5, y: 5), SIMD4(0, 0, 0, 255), rule)
        }
    }

    /// The stroke is painted over the fill, centred on the outline; round caps reach past the end.
    func testStrokeOverFill() throws {
        let frame = Fixture.render(
            try job(
                """
                {"type": "shape", "shape": "path", "size": [40, 40], "path": "M0 20H40",
                 "fill": "#00000000", "stroke": "#00ff00", "strokeWidth": 6, "lineCap": "round",
                 "anchor": [0, 0], "position": [10, 10]}
                """))
        XCTAssertEqual(frame.pixel(x: 30, y: 30), SIMD4(0, 255, 0, 255))
        XCTAssertEqual(frame.pixel(x: 30, y: 26), SIMD4(0, 0, 0, 255))
        XCTAssertEqual(frame.pixel(x: 8, y: 30), SIMD4(0, 255, 0, 255))
        XCTAssertEqual(frame.pixel(x: 5, y: 30), SIMD4(0, 0, 0, 255))
    }

    /// One thread and several render the same bytes (bands split differently).
    func testThreadsAgree() throws {
        let job = try job(
            """
            {"type": "shape", "shape": "path", "size": [100, 100], "path": "M50 4L77 93L3 37H97L23 93Z",
             "fillRule": "evenOdd", "gradient": ["#ff0000", "#0000ff"], "stroke": "#ffffff", "strokeWidth": 3,
             "lineJoin": "round", "rotation": 17, "scaleX": 1.3}
            """, width: 160, height: 120)
        func pixels(_ frame: RGBA8Frame) -> [SIMD4<UInt8>] {
            (0..<120).flatMap { y in (0..<160).map { frame.pixel(x: $0, y: y) } }
        }
        let one = pixels(Fixture.render(job, threads: 1))
        XCTAssertEqual(one, pixels(Fixture.render(job, threads: 3)))
        XCTAssertGreaterThan(Set(one).count, 10)
    }

    /// A shape composited after another leaves every pixel outside its own extent as the first
    /// left it. Both are painted into the same scratch band; the second's window starts and ends
    /// inside 8-pixel chunks, whose other pixels still hold the first shape (they were composited
    /// again, and the picture depended on which worker had painted what into its band before).
    func testAShapeLeavesThePixelsOutsideItsExtentAlone() throws {
        let wide = """
            {"type": "shape", "shape": "path", "size": [60, 40], "path": "M0 0H60V40H0Z", "fill": "#ff800080",
             "anchor": [0, 0], "position": [2, 10]}
            """
        let narrow = """
            {"type": "shape", "shape": "path", "size": [6, 10], "path": "M0 0H6V10H0Z", "fill": "#00ff00",
             "anchor": [0, 0], "position": [29, 20]}
            """
        let under = Fixture.render(try job(wide), threads: 1)
        let both = Fixture.render(try job(wide + ", " + narrow), threads: 1)
        var changed = 0
        for y in 0..<64 {
            for x in 0..<64 {
                let inside = (28..<36).contains(x) && (19..<31).contains(y)
                if inside {
                    if both.pixel(x: x, y: y) != under.pixel(x: x, y: y) { changed += 1 }
                } else {
                    XCTAssertEqual(both.pixel(x: x, y: y), under.pixel(x: x, y: y), "\(x), \(y)")
                }
            }
        }
        XCTAssertEqual(changed, 60, "the narrow shape's own pixels")
    }
}
