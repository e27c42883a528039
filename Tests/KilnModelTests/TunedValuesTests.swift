import KilnModel
import XCTest

/// The studio's Save as text: only the changed values' text is replaced, at the byte spans the
/// parser recorded, so the rest of the file stays byte for byte.
final class TunedValuesTests: XCTestCase {
    func edit(_ document: String, variables: [String: String] = [:], pins: [String: Double] = [:])
        throws -> (text: String, changes: [TunedValues.Change])
    {
        let edited = try TunedValues(variables: variables, pins: pins).edit(Array(document.utf8))
        return (String(decoding: edited.bytes, as: UTF8.self), edited.changes)
    }

    func testTheParserRecordsEachValuesByteSpanPastNonASCIIText() throws {
        let text = "{\"t\": \"Grüße 👋\",\t\"n\" :  -12.50e1 , \"a\": [ 1,{\"x\":true} ]}"
        let bytes = Array(text.utf8)
        let root = try JSONParser.parse(bytes)
        func spelled(_ node: JSONNode?) -> String {
            guard let node else { return "missing" }
            return String(decoding: bytes[node.byteRange], as: UTF8.self)
        }
        XCTAssertEqual(spelled(root), text)
        XCTAssertEqual(spelled(root["t"]), "\"Grüße 👋\"")
        XCTAssertEqual(spelled(root["n"]), "-12.50e1")
        XCTAssertEqual(spelled(root["a"]), "[ 1,{\"x\":true} ]")
        XCTAssertEqual(spelled(root["a"]?.elements?[1]["x"]), "true")
    }

    /// Two pinned numbers change; tabs, CRLF line ends, odd spacing, key order and the spelling of
    /// untouched numbers (`1.50`, `2e1`) survive, even after non-ASCII text on the same line.
    func testPinsReplaceOnlyTheirNumbersKeepingLayoutAndOrder() throws {
        let document =
            "{\r\n\t\"zeta\" :1.50,\r\n  \"title\": \"Ünïcödé ✓\", \"layers\":[ {\"size\": [ 200 ,2e1 ],"
            + "\"cornerRadius\":20 } ],\r\n\"alpha\": 3\r\n}\r\n"
        let (text, changes) = try edit(
            document, pins: ["layers[0].size[1]": 45.25, "layers[0].cornerRadius": 50, "zeta": 1.5])
        XCTAssertEqual(
            text,
            "{\r\n\t\"zeta\" :1.50,\r\n  \"title\": \"Ünïcödé ✓\", \"layers\":[ {\"size\": [ 200 ,45.25 ],"
                + "\"cornerRadius\":50 } ],\r\n\"alpha\": 3\r\n}\r\n")
        XCTAssertEqual(changes.map(\.path), ["layers[0].size[1]", "layers[0].cornerRadius"])
        XCTAssertEqual(changes.map(\.old), ["2e1", "20"])
        XCTAssertEqual(changes.map(\.new), ["45.25", "50"])
        XCTAssertEqual(changes.map(\.line), [3, 3])
    }

    func testVariablesWriteTheirDefaultsInEveryDeclarationForm() throws {
        let document = """
            {
              "kiln": 1,
              "variables": {
                "title": "Hello",
                "count": 3,
                "size": { "type": "number", "default": 200, "min": 50, "max": 400 },
                "accent": { "default": "#ff5a36", "type": "color" },
                "same": { "type": "number", "default": 20.0 }
              },
              "layers": []
            }
            """
        let (text, changes) = try edit(
            document,
            variables: [
                "title": "Grüße, 世界 👋 \"quoted\" \\ back\nline", "count": "4.5", "size": "250",
                "accent": "#00ff00", "same": "20",
            ])
        XCTAssertEqual(
            text,
            document.replacingOccurrences(
                of: "\"title\": \"Hello\"",
                with: #""title": "Grüße, 世界 👋 \"quoted\" \\ back\nline""#
            )
            .replacingOccurrences(of: "\"count\": 3", with: "\"count\": 4.5")
            .replacingOccurrences(of: "\"default\": 200", with: "\"default\": 250")
            .replacingOccurrences(of: "\"#ff5a36\"", with: "\"#00ff00\""))
        // 20 == 20.0: left as written.
        XCTAssertEqual(
            changes.map(\.path),
            ["variables.title", "variables.count", "variables.size.default", "variables.accent.default"])
        let reparsed = try JSONParser.parse(Array(text.utf8))
        XCTAssertEqual(reparsed["variables"]?["title"]?.string, "Grüße, 世界 👋 \"quoted\" \\ back\nline")
    }

    func testNothingChangesWhenTheFileAlreadyHoldsTheValues() throws {
        let document = "{ \"variables\": { \"n\": 2.50 }, \"a\": [1, 2] }"
        let (text, changes) = try edit(document, variables: ["n": "2.5"], pins: ["a[1]": 2])
        XCTAssertEqual(text, document)
        XCTAssertEqual(changes, [])
    }

    func testWhatCannotBeSavedIsRefusedNamingThePath() {
        let document = """
            { "variables": { "n": { "type": "number", "default": 1 }, "t": "x", "bare": { "type": "text" } },
              "layers": [ { "opacity": "half", "size": [1, 2] } ] }
            """
        let cases: [(TunedValues, String)] = [
            (TunedValues(variables: ["missing": "1"]), "declares no variable 'missing'"),
            (TunedValues(variables: ["n": "ten"]), "variables.n.default: expected a number, got 'ten'"),
            (TunedValues(variables: ["bare": "y"]), "variables.bare: the declaration has no 'default'"),
            (
                TunedValues(pins: ["layers[0].rotation": 5]),
                "layers[0].rotation is not written in the job file"
            ),
            (TunedValues(pins: ["layers[0].size[2]": 5]), "layers[0].size[2] is not written in the job file"),
            (TunedValues(pins: ["layers[0].opacity": 0.5]), "layers[0].opacity is a string in the job file"),
            (TunedValues(pins: ["layers[": 1]), "is not a JSON path"),
            (
                TunedValues(variables: ["n": "3"], pins: ["variables.n.default": 4]),
                "variables.n.default is given two values"
            ),
        ]
        for (values, expected) in cases {
            XCTAssertThrowsError(try values.edit(Array(document.utf8))) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) does not say: \(expected)")
            }
        }
        // The parser takes no comments, so a file with them never loaded and is not saved into.
        XCTAssertThrowsError(try TunedValues(pins: ["a": 1]).edit(Array("{ // x\n \"a\": 0 }".utf8))) {
            XCTAssertTrue("\($0)".contains("not valid JSON"), "\($0)")
        }
    }

    func testTheDiffHasAHunkPerChangedLine() throws {
        let document = "{\n  \"a\": 1,\n  \"b\": [2, 3],\n  \"c\": 4\n}\n"
        let edited = try TunedValues(pins: ["a": 10, "b[1]": 30]).edit(Array(document.utf8))
        XCTAssertEqual(
            TunedValues.unifiedDiff(from: Array(document.utf8), to: edited.bytes, file: "job.json"),
            """
            --- job.json
            +++ job.json (saved)
            @@ -2 +2 @@
            -  "a": 1,
            +  "a": 10,
            @@ -3 +3 @@
            -  "b": [2, 3],
            +  "b": [2, 30],

            """)
    }
}
