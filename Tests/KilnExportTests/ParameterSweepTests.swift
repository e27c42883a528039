import Foundation
import KilnExport
import KilnModel
import XCTest

/// `kiln sweep`'s documents: values written at JSON paths, and the errors for paths that are not there.
final class ParameterSweepTests: XCTestCase {
    let job = Array(
        #"""
        {"kiln": 1, "output": {"width": 64, "height": 36, "fps": 10, "duration": 1},
         "layers": [{"type": "solid", "color": "#000000"},
                    {"type": "shape", "size": [20, 10], "fill": "#ff0000", "effects": [{"blur": 2}]}]}
        """#.utf8)

    func value(_ document: [UInt8], _ path: [Any]) throws -> Any? {
        var node: Any? = try JSONSerialization.jsonObject(with: Data(document))
        for step in path {
            if let key = step as? String { node = (node as? [String: Any])?[key] }
            if let index = step as? Int {
                node = (node as? [Any]).flatMap { $0.indices.contains(index) ? $0[index] : nil }
            }
        }
        return node
    }

    func testValuesAreJSONOrStringsAndCommasInsideBracketsDoNotSplit() throws {
        let variation = try ParameterSweep.variation(
            ##"layers[1].size=[20, 10],[40,20], "a,b" ,#00ff00,true"##)
        XCTAssertEqual(variation.path, JSONPath.root.key("layers").index(1).key("size"))
        XCTAssertEqual(variation.values, ["[20, 10]", "[40,20]", #""a,b""#, ##""#00ff00""##, "true"])
    }

    func testEveryCombinationIsWrittenAtItsPath() throws {
        let sweep = ParameterSweep(variations: [
            try ParameterSweep.variation("layers[1].effects[0].blur=0,4,8"),
            try ParameterSweep.variation("layers[1].fill=#ff0000,#0000ff"),
        ])
        XCTAssertEqual(sweep.combinations, [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]])
        XCTAssertEqual(sweep.combinationCount, 6)
        let document = try sweep.document(job, combination: [2, 1])
        XCTAssertEqual(try value(document, ["layers", 1, "effects", 0, "blur"]) as? Double, 8)
        XCTAssertEqual(try value(document, ["layers", 1, "fill"]) as? String, "#0000ff")
        XCTAssertEqual(try value(document, ["layers", 0, "color"]) as? String, "#000000", "the rest is kept")
        XCTAssertEqual(sweep.caption([2, 1]), "blur=8 fill=#0000ff")
    }

    /// A parameter the job leaves at its default can be swept: the last key may be new.
    func testTheLastKeyMayBeAdded() throws {
        let sweep = ParameterSweep(variations: [try ParameterSweep.variation("layers[1].opacity=0.5")])
        XCTAssertEqual(
            try value(try sweep.document(job, combination: [0]), ["layers", 1, "opacity"]) as? Double, 0.5)
    }

    func testPathsThatAreNotThereAreNamed() throws {
        let cases = [
            "layers[5].fill=1": "layers[5] does not exist: layers has 2 items (0…1)",
            "layers[1].efects[0].blur=1":
                "layers[1].efects does not exist: layers[1] has keys effects, fill, size, type; did you mean 'effects'?",
            "layers[1].fill[0]=1":
                "layers[1].fill[0] does not exist: layers[1].fill is a string, not an array",
            "output.width.x=1":
                "output.width.x does not exist: output.width is a number or boolean, not an object",
        ]
        for (text, message) in cases {
            let sweep = ParameterSweep(variations: [try ParameterSweep.variation(text)])
            XCTAssertThrowsError(try sweep.document(job, combination: [0]), text) { error in
                XCTAssertEqual((error as? ParameterSweep.Problem)?.description, message)
            }
        }
        for bad in ["layers[1].fill", "layers..x=1", "=1,2", "a=", #"a=[1,2"#, #"a="x"#] {
            XCTAssertThrowsError(try ParameterSweep.variation(bad), bad)
        }
    }

    /// A sheet's frames: evenly spaced from the first to the last, or every S seconds; a short job
    /// shows each of its frames once.
    func testContactSheetFrames() throws {
        let loaded = try JobFiles.decode(
            bytes: job, file: "t.json", baseDirectory: URL(fileURLWithPath: "/tmp"))
        let sheet = ContactSheet(job: loaded)
        XCTAssertEqual(sheet.frames(.count(5)), [0, 2, 5, 7, 9])
        XCTAssertEqual(sheet.frames(.count(1)), [0])
        XCTAssertEqual(sheet.frames(.count(40)), Array(0..<10))
        XCTAssertEqual(sheet.frames(.every(0.25)), [0, 2, 5, 7])
        XCTAssertNil(sheet.frames(.every(0.001)), "1000 cells")
        XCTAssertEqual(sheet.caption(frame: 7), "0:00.70 · frame 7")
    }

    /// Frames rendered several at once are the frames rendered one by one.
    func testOneThreadAndManyGiveTheSameSheet() throws {
        let loaded = try JobFiles.load(
            file: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("jobs/showcase.json").path)
        let grid = FrameGrid(title: "t", columns: 3, cellWidth: 96, cellHeight: 54)
        let frames = [0, 75, 150, 299]
        let one = try ContactSheet(job: loaded, threads: 1).render(frames: frames, grid: grid)
        let many = try ContactSheet(job: loaded, threads: 4).render(frames: frames, grid: grid)
        XCTAssertEqual(one.byteArray, many.byteArray)
    }
}
