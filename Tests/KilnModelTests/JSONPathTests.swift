import KilnModel
import XCTest

final class JSONPathTests: XCTestCase {
    func testFormatsKeysAndIndices() {
        XCTAssertEqual(JSONPath.root.description, "$")
        XCTAssertEqual(
            JSONPath.root.key("layers").index(1).key("points").index(4).description, "layers[1].points[4]")
        XCTAssertEqual(JSONPath.root.key("output").key("width").description, "output.width")
        XCTAssertEqual(JSONPath.root.index(0).description, "[0]")
    }

    func testQuotesKeysThatAreNotIdentifiers() {
        XCTAssertEqual(JSONPath.root.key("comment").key("my key").description, #"comment["my key"]"#)
        XCTAssertEqual(JSONPath.root.key("a\"b").description, #"["a\"b"]"#)
        XCTAssertEqual(JSONPath.root.key("1st").description, #"["1st"]"#)
        XCTAssertEqual(JSONPath.root.key("").description, #"[""]"#)
    }

    /// What `kiln sweep --vary` reads: any path as it is printed, and back.
    func testParsesWhatItPrints() {
        let paths = [
            JSONPath.root.key("layers").index(2).key("effects").index(0).key("ripple").key("amplitude"),
            JSONPath.root.key("output").key("width"), JSONPath.root.index(0).index(3),
            JSONPath.root.key("comment").key("my key"), JSONPath.root.key("a\"b\\c").key("x"),
            JSONPath.root.key("1st"), JSONPath.root.key("line\nbreak"),
        ]
        for path in paths {
            XCTAssertEqual(JSONPath(parsing: path.description), path, path.description)
        }
        XCTAssertEqual(JSONPath(parsing: "$.output.fps"), JSONPath.root.key("output").key("fps"))
        for bad in ["", "$", ".a", "a..b", "a.", "a[", "a[x]", "a[1", #"a["b"#, "a b[0]x", "[-1]"] {
            XCTAssertNil(JSONPath(parsing: bad), bad)
        }
    }

    func testDiagnosticDescription() {
        let path = JSONPath.root.key("layers").index(1).key("points").index(4)
        let located = Diagnostic(
            file: "jobs/x.json", path: path, location: SourceLocation(line: 12, column: 5),
            message: "expected a point [x, y], got a string")
        XCTAssertEqual(
            located.description,
            "jobs/x.json:12:5: layers[1].points[4]: expected a point [x, y], got a string")
        let unlocated = Diagnostic(
            file: "jobs/x.json", path: .root.key("output"), location: nil,
            message: "missing required key 'width'")
        XCTAssertEqual(unlocated.description, "jobs/x.json: output: missing required key 'width'")
    }

    func testSuggestions() {
        let keys = ["width", "height", "fps", "duration"]
        XCTAssertEqual(Suggestion.closest(to: "widht", among: keys), "width")
        XCTAssertEqual(Suggestion.closest(to: "Height", among: keys), "height")
        XCTAssertEqual(Suggestion.closest(to: "fsp", among: keys), "fps")
        XCTAssertNil(Suggestion.closest(to: "x", among: ["t", "v"]))
        XCTAssertNil(Suggestion.closest(to: "banana", among: keys))
    }
}
