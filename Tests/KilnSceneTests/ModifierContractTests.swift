import KilnModel
import KilnRaster
import KilnScene
import XCTest

/// Contract checks over every modifier property, transition and effect added with composition.
final class ModifierContractTests: XCTestCase {
    let base = """
        {"type": "shape", "size": [120, 80], "cornerRadius": 14, "fill": "#3a7bd5", "rotation": 11,
         "stroke": "#ffffff", "strokeWidth": 2
        """

    func job(_ extra: String) throws -> Job {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 200, "height": 160, "fps": 30, "duration": 2},
             "layers": [{"type": "solid", "color": "#101018"}, \(base)\(extra)}]}
            """)
    }

    /// Identity values of every property (as visualEffect constants), a transition at its identity
    /// phase, and a zero blur all give back the plain layer, byte for byte.
    func testIdentityParametersReturnTheInput() throws {
        let plain = Fixture.render(try job("")).byteArray
        let identity: [String: String] = [
            "opacity": "1", "scale": "1", "scaleX": "1", "scaleY": "1", "rotation": "0", "offsetX": "0",
            "offsetY": "0", "blur": "0", "brightness": "0", "contrast": "1", "saturation": "1",
            "hueRotation": "0", "grayscale": "0",
        ]
        XCTAssertEqual(Set(identity.keys), Set(ModifierProperty.allCases.map(\.rawValue)))
        for (property, value) in identity {
            let frame = Fixture.render(try job(#", "visualEffect": {"\#(property)": \#(value)}"#)).byteArray
            XCTAssertEqual(frame, plain, property)
        }
        let settled = Fixture.render(
            try job(#", "appear": 0, "transition": "twirl", "transitionAnimation": {"duration": 0.5}"#), at: 1
        ).byteArray
        XCTAssertEqual(settled, plain, "a finished transition")
        XCTAssertEqual(Fixture.render(try job(#", "effects": [{"blur": 0}]"#)).byteArray, plain, "blur 0")
    }

    /// Every property at the ends of its range, through transitions in mid-phase and blurs: no
    /// NaN, premultiplied output, same bytes on 1 and 3 threads.
    func testExtremesStayValidAndDeterministic() throws {
        for property in ModifierProperty.allCases {
            for value in [property.range.lowerBound, property.range.upperBound] {
                let job = try job(
                    #", "visualEffect": {"\#(property.rawValue)": \#(value)}, "appear": 0.2, "transition": ["twirl", {"move": "bottom"}]"#
                )
                let one = Fixture.renderYUV(job, at: 0.3, threads: 1)
                let three = Fixture.renderYUV(job, at: 0.3, threads: 3)
                XCTAssertEqual(one, three, "\(property) = \(value)")
                let frame = Fixture.render(job, at: 0.3)
                // Opaque output: the solid underneath covers everything.
                for i in stride(from: 3, to: frame.byteArray.count, by: 4) where frame.byteArray[i] != 255 {
                    XCTFail("\(property) = \(value): alpha \(frame.byteArray[i]) at byte \(i)")
                    break
                }
            }
        }
    }

    /// Colour stages before a blur act before it: a contrast boost then a blur is soft; a blur
    /// then a contrast boost brings the edge back.
    func testColorStagesBeforeABlurApplyBeforeIt() throws {
        func edgeSteepness(_ effects: String) throws -> Int {
            let frame = Fixture.render(
                try Fixture.job(
                    """
                    {"kiln": 1, "output": {"width": 200, "height": 40, "fps": 30, "duration": 1},
                     "layers": [{"type": "group", "size": [200, 40], "effects": \(effects), "layers": [
                                  {"type": "solid", "color": "#000000"},
                                  {"type": "shape", "size": [100, 40], "position": [50, 20], "fill": "#8080ff"}]}]}
                    """))
            var steepest = 0
            for x in 60..<140 {
                steepest = max(
                    steepest, abs(Int(frame.pixel(x: x + 1, y: 20).z) - Int(frame.pixel(x: x, y: 20).z)))
            }
            return steepest
        }
        let contrastFirst = try edgeSteepness(#"[{"contrast": 5}, {"blur": 15}]"#)
        let blurFirst = try edgeSteepness(#"[{"blur": 15}, {"contrast": 5}]"#)
        XCTAssertLessThan(contrastFirst, 12)
        XCTAssertGreaterThan(blurFirst, 2 * contrastFirst)
    }
}
