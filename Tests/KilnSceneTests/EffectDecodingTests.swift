import Foundation
import KilnModel
import XCTest

final class EffectDecodingTests: XCTestCase {
    func job(effects: String) throws -> Job {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#336699", "effects": \(effects)}]}
            """)
    }

    func testShorthandAndObjectFormsInOrder() throws {
        let layer = try XCTUnwrap(
            try job(effects: #"[{"hueRotation": 45}, {"brightness": {"amount": 0.2}}, {"grayscale": 0.5}]"#)
                .layers.first)
        XCTAssertEqual(layer.effects.map(\.kind), ["hueRotation", "brightness", "grayscale"])
        XCTAssertEqual(layer.effects[1].path.description, "layers[0].effects[1].brightness")
    }

    func testBadStagesAreReportedWithPaths() {
        XCTAssertThrowsError(
            try job(effects: #"[{"hueRotaton": 45}, {"brightness": 2}, 7, {"contrast": 1, "saturation": 1}]"#)
        ) { error in
            let text = "\(error)"
            for expected in [
                "layers[0].effects[0].hueRotaton", "did you mean 'hueRotation'",
                "layers[0].effects[1].brightness.amount",
                "-1…1", "layers[0].effects[2]", "layers[0].effects[3]",
            ] {
                XCTAssertTrue(text.contains(expected), "missing '\(expected)' in\n\(text)")
            }
        }
    }
}
