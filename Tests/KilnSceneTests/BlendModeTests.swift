import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnScene
import XCTest

/// `blendMode` in the scene: which backdrop a layer blends with, and that every way an item
/// reaches the stack (painted, coloured, blurred, a group) blends the same.
final class BlendModeTests: XCTestCase {
    private func job(_ layers: String, width: Int = 64, height: Int = 32) throws -> Job {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 30, "duration": 1},
             "layers": [\(layers)]}
            """)
    }

    private func near(_ p: SIMD4<UInt8>, _ expected: SIMD4<Int>, _ message: String) {
        XCTAssertTrue((0..<4).allSatisfy { abs(Int(p[$0]) - expected[$0]) <= 1 }, "\(message): \(p)")
    }

    /// A layer blends with the layers below it in its parent: at the top level with the frame's
    /// other layers, in a group only with the group's children below it (over transparency),
    /// as SwiftUI's blendMode does inside its compositing group.
    func testGroupChildrenBlendWithinTheGroup() throws {
        let red = ##"{"type": "solid", "color": "#ff0000"}"##
        let whiteMultiplied =
            ##"{"type": "shape", "shape": "rect", "size": [20, 32], "anchor": [0, 0], "position": [0, 0], "fill": "#ffffff", "blendMode": "multiply"}"##
        let yellowScreened =
            ##"{"type": "shape", "shape": "rect", "size": [20, 32], "anchor": [0, 0], "position": [40, 0], "fill": "#404000", "blendMode": "screen"}"##
        let top = Fixture.render(try job([red, whiteMultiplied, yellowScreened].joined(separator: ",")))
        near(top.pixel(x: 10, y: 10), SIMD4(255, 0, 0, 255), "white × red is red")
        near(top.pixel(x: 50, y: 10), SIMD4(255, 64, 0, 255), "screened onto red")
        // The same two inside an unclipped, unfaded group over the red: they meet only the
        // group's transparency, so each shows as itself.
        let grouped = Fixture.render(
            try job(red + ##", {"type": "group", "layers": [\##(whiteMultiplied), \##(yellowScreened)]}"##))
        near(grouped.pixel(x: 10, y: 10), SIMD4(255, 255, 255, 255), "white within the group")
        near(grouped.pixel(x: 50, y: 10), SIMD4(64, 64, 0, 255), "its own colour within the group")
        // A child below in the group is a backdrop.
        let blue = ##"{"type": "solid", "color": "#0000ff"}"##
        let withBase = Fixture.render(
            try job(red + ##", {"type": "group", "layers": [\##(blue), \##(whiteMultiplied)]}"##))
        near(withBase.pixel(x: 10, y: 10), SIMD4(0, 0, 255, 255), "white × blue")
        // The group itself may blend, as one picture, with what is below it.
        let groupMultiplied = Fixture.render(
            try job(
                red
                    + ##", {"type": "group", "blendMode": "multiply", "layers": [{"type": "solid", "color": "#808080"}]}"##
            ))
        near(groupMultiplied.pixel(x: 10, y: 10), SIMD4(128, 0, 0, 255), "grey group × red")
    }

    /// Painted, coloured by an effect, blurred (an offscreen) and faded: each way an item reaches
    /// the stack blends by the same formula. Checked where the layer is flat: a 50 % grey
    /// backdrop multiplied by red at 0.8 opacity, 128·(1 − 0.8) + 128·0.8·1 = 128 red, 128·0.2
    /// = 26 green and blue.
    func testEveryPathOfAnItemBlends() throws {
        let grey = ##"{"type": "solid", "color": "#808080"}"##
        let rect =
            ##""type": "shape", "shape": "rect", "anchor": [0, 0], "blendMode": "multiply", "opacity": 0.8"##
        let place = ##""size": [48, 32], "position": [8, 0]"##
        let variants = [
            "painted": ##"{\##(rect), \##(place), "fill": "#ff0000"}"##,
            "coloured":
                ##"{\##(rect), \##(place), "fill": "#ffffff", "effects": [{"tint": {"color": "#ff0000"}}]}"##,
            "blurred":
                ##"{\##(rect), "size": [48, 96], "position": [8, -32], "fill": "#ff0000", "effects": [{"blur": 2}]}"##,
        ]
        for (name, layer) in variants {
            let frame = Fixture.render(try job(grey + ", " + layer))
            near(frame.pixel(x: 32, y: 16), SIMD4(128, 26, 26, 255), name)
            near(frame.pixel(x: 2, y: 16), SIMD4(128, 128, 128, 255), "\(name): outside the layer")
        }
    }

    /// The bottom layer has nothing to blend with: every mode gives what normal gives.
    func testBottomLayerBlendsWithNothing() throws {
        let normal = Fixture.render(try job(##"{"type": "solid", "color": "#3366cc80"}"##)).byteArray
        for mode in BlendMode.allCases {
            let frame = Fixture.render(
                try job(##"{"type": "solid", "color": "#3366cc80", "blendMode": "\##(mode.rawValue)"}"##))
            XCTAssertEqual(frame.byteArray, normal, mode.rawValue)
        }
    }

    /// The example job: one thread and several give the same bytes, in YUV and RGBA.
    func testBlendModesJobIsThreadIndependent() throws {
        let job = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/blend-modes.json").path)
        for time in [0.0, 2.2] {
            let reference = Fixture.renderYUV(job, at: time, threads: 1)
            for threads in [2, 5] {
                XCTAssertEqual(
                    reference, Fixture.renderYUV(job, at: time, threads: threads), "t=\(time) \(threads)")
            }
            XCTAssertEqual(
                Fixture.render(job, at: time, threads: 1).byteArray,
                Fixture.render(job, at: time, threads: 4).byteArray, "t=\(time)")
        }
    }

    func testUnknownModeIsRefusedWithItsPath() {
        XCTAssertThrowsError(
            try job(##"{"type": "solid", "color": "#000000", "blendMode": "multipy"}"##)
        ) { error in
            let text = "\(error)"
            for expected in ["layers[0].blendMode", "'multipy' is not one of", "did you mean 'multiply'"] {
                XCTAssertTrue(text.contains(expected), "missing '\(expected)' in\n\(text)")
            }
        }
    }

    /// Every mode of the job format has its kernel, under the same name.
    func testEveryModeNamesItsFormula() {
        XCTAssertEqual(BlendMode.allCases.count, BlendFormula.allCases.count + 1)
        let formulas = Set(BlendFormula.allCases.map { "\($0)" })
        for mode in BlendMode.allCases where mode != .normal {
            XCTAssertTrue(formulas.contains(mode.rawValue), mode.rawValue)
        }
    }
}
