import KilnModel
import XCTest

final class JSONParserTests: XCTestCase {
    func testParsesAllValueKindsWithLocations() {
        let root = parse(
            """
            {
              "a": [1, -2.5e2, 0.125],
              "b": {"c": true, "d": false, "e": null},
              "s": "x"
            }
            """)
        XCTAssertEqual(root.location, SourceLocation(line: 1, column: 1))
        guard let members = root.members else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), ["a", "b", "s"])
        XCTAssertEqual(members[0].keyLocation, SourceLocation(line: 2, column: 3))
        let array = root["a"]?.elements ?? []
        XCTAssertEqual(array.compactMap(\.number), [1, -250, 0.125])
        XCTAssertEqual(array[1].location, SourceLocation(line: 2, column: 12))
        XCTAssertEqual(root["b"]?["c"]?.bool, true)
        XCTAssertEqual(root["b"]?["d"]?.bool, false)
        if case .null = root["b"]?["e"]?.value {} else { XCTFail("expected null") }
        XCTAssertEqual(root["s"]?.string, "x")
        XCTAssertEqual(root["s"]?.location, SourceLocation(line: 4, column: 8))
        XCTAssertNil(root["missing"])
    }

    func testStringEscapesAndUnicode() {
        let root = parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u4E2D", "\ud83d\ude00", "é😀"]"#)
        let strings = root.elements?.compactMap(\.string) ?? []
        XCTAssertEqual(strings, ["a\"b\\c/d\u{8}\u{C}\n\r\t", "é中", "😀", "é😀"])
    }

    func testColumnsCountScalarsNotBytes() {
        let root = parse(#"["é😀", 1]"#)
        XCTAssertEqual(root.elements?[1].location, SourceLocation(line: 1, column: 8))
    }

    func testBOMIsSkippedAndCRLFCountsOneLine() {
        let root = parse("\u{FEFF}{\r\n  \"k\": 1\r\n}")
        XCTAssertEqual(root["k"]?.location, SourceLocation(line: 2, column: 8))
    }

    func testKeepsDuplicateKeysForTheDecoder() {
        let root = parse(#"{"a": 1, "a": 2}"#)
        XCTAssertEqual(root.members?.count, 2)
        XCTAssertEqual(root["a"]?.number, 1)
    }

    func testMissingCommaReportsTheOffendingToken() {
        let error = syntaxError("{\n  \"a\": 1,\n  \"b\": 2 \"c\": 3\n}")
        XCTAssertEqual(error?.location, SourceLocation(line: 3, column: 10))
        XCTAssertEqual(error?.message, "expected ',' or '}' after object member")
    }

    func testMissingCommaInArray() {
        let error = syntaxError("[\n  1,\n  2\n  3\n]")
        XCTAssertEqual(error?.location, SourceLocation(line: 4, column: 3))
        XCTAssertEqual(error?.message, "expected ',' or ']' after array element")
    }

    func testTrailingCommasPointAtTheComma() {
        XCTAssertEqual(syntaxError("[1, 2,\n]")?.location, SourceLocation(line: 1, column: 6))
        XCTAssertEqual(syntaxError("[1, 2,\n]")?.message, "trailing comma")
        XCTAssertEqual(syntaxError("{\"a\": 1 ,}")?.location, SourceLocation(line: 1, column: 9))
        XCTAssertEqual(syntaxError("{\"a\": 1 ,}")?.message, "trailing comma")
    }

    func testUnterminatedStringPointsAtItsStart() {
        let error = syntaxError("{\"a\": \"abc")
        XCTAssertEqual(error?.location, SourceLocation(line: 1, column: 7))
        XCTAssertEqual(error?.message, "unterminated string")
        XCTAssertEqual(syntaxError("[\"ab\ncd\"]")?.message, "unterminated string")
    }

    func testErrorKindsAndLocations() {
        let cases: [(String, Int, Int, String)] = [
            ("", 1, 1, "empty document; expected a JSON value"),
            ("[1, 2", 1, 6, "unexpected end of input; expected ',' or ']' after array element"),
            ("{\"a\" 1}", 1, 6, "expected ':' after object key, got '1'"),
            ("{a: 1}", 1, 2, "expected a key in double quotes, got 'a'"),
            ("[01]", 1, 2, "invalid number: leading zeros are not allowed"),
            ("[1.]", 1, 4, "invalid number: expected a digit after '.'"),
            ("[1e+]", 1, 5, "invalid number: expected a digit in the exponent"),
            ("[-]", 1, 3, "invalid number: expected a digit after '-'"),
            ("[+1]", 1, 2, "expected a value, got '+'"),
            ("[1e999]", 1, 2, "number 1e999 is too large"),
            ("[NaN]", 1, 2, "'NaN' is not a valid JSON number"),
            ("[tru]", 1, 2, "invalid literal 'tru'; strings must be in double quotes"),
            ("{} {}", 1, 4, "unexpected '{' after the JSON value"),
            ("[1] // note", 1, 5, "comments are not allowed in JSON"),
            ("[\"\\q\"]", 1, 3, "invalid escape '\\q' in string"),
            ("[\"\\u12G4\"]", 1, 3, "invalid \\u escape: expected 4 hexadecimal digits"),
            ("[\"\\ud83d\"]", 1, 3, "unpaired surrogate \\uD83D in string"),
            ("[\"\\ude00\"]", 1, 3, "unpaired surrogate \\uDE00 in string"),
            ("[\"a\tb\"]", 1, 4, "control character U+0009 must be escaped in a string"),
            ("[\n  'x']", 2, 3, "expected a value, got '''"),
        ]
        for (text, line, column, message) in cases {
            guard let error = syntaxError(text) else { continue }
            XCTAssertEqual(
                error.location, SourceLocation(line: line, column: column), "for \(text.debugDescription)")
            XCTAssertEqual(error.message, message, "for \(text.debugDescription)")
        }
    }

    func testInvalidUTF8InStringIsRejected() {
        let bytes: [UInt8] = Array("[\"".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        XCTAssertThrowsError(try JSONParser.parse(bytes)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.message, "string is not valid UTF-8")
        }
    }

    func testNestingDepthIsBounded() {
        let ok =
            String(repeating: "[", count: JSONParser.maximumDepth)
            + String(repeating: "]", count: JSONParser.maximumDepth)
        XCTAssertNoThrow(try JSONParser.parse(Array(ok.utf8)))
        let deep = String(repeating: "[", count: 100_000)
        let error = syntaxError(deep)
        XCTAssertEqual(error?.location, SourceLocation(line: 1, column: JSONParser.maximumDepth + 1))
        XCTAssertEqual(
            error?.message,
            "nesting is deeper than 256 levels (the limit json-depth; raise it with --limit json-depth=N)")
    }
}
