import Foundation
import KilnSymbols
import KilnTestSupport
import XCTest

final class SymbolFileErrorTests: ScratchDirectoryTestCase {
    private func assertError(
        _ text: String, line: Int?, column: Int?, message: String, file: StaticString = #filePath,
        sourceLine: UInt = #line
    ) {
        guard
            let error = SymbolTestSupport.error(
                text, file: "icons/x.svg", sourceFile: file, sourceLine: sourceLine)
        else {
            return
        }
        XCTAssertEqual(error.file, "icons/x.svg", file: file, line: sourceLine)
        XCTAssertEqual(error.line, line, "line of \(error)", file: file, line: sourceLine)
        XCTAssertEqual(error.column, column, "column of \(error)", file: file, line: sourceLine)
        XCTAssertEqual(error.message, message, file: file, line: sourceLine)
    }

    func testDescriptionIsFileLineColumnMessage() {
        let error = SymbolFileError(file: "icons/x.svg", line: 12, column: 5, message: "bad")
        XCTAssertEqual(error.description, "icons/x.svg:12:5: bad")
        XCTAssertEqual(SymbolFileError(file: "a.svg", line: 3, message: "m").description, "a.svg:3: m")
        XCTAssertEqual(SymbolFileError(file: "a.svg", message: "m").description, "a.svg: m")
    }

    func testMalformedXMLReportsLibxml2sPlace() {
        let text = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
              <g id="a">
                <rect width="1" height="1">
              </g>
            </svg>
            """
        guard let error = SymbolTestSupport.error(text) else { return }
        XCTAssertEqual(error.line, 4)
        XCTAssertNotNil(error.column)
        XCTAssertTrue(error.message.contains("mismatch"), error.message)
    }

    func testUnsupportedElementNamesItselfAndItsStartTag() {
        assertError(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
              <g id="a">
                <!-- <rect> in a comment is not an element -->
                <rect width="1" height="1"/><use
                   href="#x"/>
              </g>
            </svg>
            """, line: 4, column: 33,
            message:
                "<use> is not supported in a symbol (Kiln draws path, circle, ellipse, rect, line, polyline, polygon in <g> layers)"
        )
        XCTAssertEqual(
            SymbolTestSupport.error(
                SymbolTestSupport.document(#"<g id="a"><text>hi</text></g>"#), file: "icons/x.svg")?
                .description,
            "icons/x.svg:2:11: <text> is not supported in a symbol (Kiln draws path, circle, ellipse, rect, line, polyline, polygon in <g> layers)"
        )
    }

    func testColumnsCountCharactersNotBytes() {
        assertError(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g id="é"><image/></g></svg>
            """, line: 1, column: 73,
            message:
                "<image> is not supported in a symbol (Kiln draws path, circle, ellipse, rect, line, polyline, polygon in <g> layers)"
        )
    }

    func testGradientsInDefsAndPaintServersAreRefused() {
        assertError(
            SymbolTestSupport.document(
                #"<defs><linearGradient id="g"/></defs><g id="a"><rect width="1" height="1"/></g>"#),
            line: 2, column: 7,
            message: "<linearGradient> in <defs> is not supported in a symbol (nothing may be referenced)")
        assertError(
            SymbolTestSupport.document(#"<g id="a"><rect width="1" height="1" fill="url(#g)"/></g>"#),
            line: 2, column: 11,
            message:
                "<rect> 'fill': is url(#g): gradients and patterns are not supported in a symbol (the symbol layer colours it)"
        )
    }

    func testLayerRules() {
        assertError(
            SymbolTestSupport.document("<g id=\"a\"><rect width=\"1\" height=\"1\"/></g>\n<g id=\"a\"/>"),
            line: 3, column: 1,
            message: "duplicate layer id 'a' (first at line 2)")
        assertError(
            SymbolTestSupport.document(#"<g><rect width="1" height="1"/></g>"#), line: 2, column: 1,
            message: "a top-level <g> is a layer and needs an id (the layer's name)")
        assertError(
            SymbolTestSupport.document(#"  <g id="a" data-variable="1.5"><rect width="1" height="1"/></g>"#),
            line: 2, column: 3,
            message: "layer 'a': data-variable is '1.5', expected a number from 0 to 1 or a fraction k/n")
        assertError(
            SymbolTestSupport.document(#"<g id="a" data-variable="half"><rect width="1" height="1"/></g>"#),
            line: 2, column: 1,
            message: "layer 'a': data-variable is 'half', expected a number from 0 to 1 or a fraction k/n")
        assertError(
            SymbolTestSupport.document(#"<g id="a" data-level="main"><rect width="1" height="1"/></g>"#),
            line: 2, column: 1,
            message: "layer 'a': data-level is 'main', expected primary, secondary or tertiary")
        assertError(
            SymbolTestSupport.document(#"<rect width="1" height="1"/>"#), line: 2, column: 1,
            message:
                "<rect> is outside any layer: put it in a top-level <g id=\"…\"> (each such group is a layer)"
        )
        assertError(
            SymbolTestSupport.document(#"<g id="a"><rect width="0" height="1"/></g>"#), line: 2, column: 1,
            message: "layer 'a' draws nothing (no visible shape in it)")
        assertError(
            SymbolTestSupport.document("<title>t</title>"), line: 1, column: 1,
            message: "the symbol has no layers: expected top-level <g id=\"…\"> groups holding its shapes")
    }

    func testBadPathDataGivesTheOffsetInD() {
        guard
            let error = SymbolTestSupport.error(
                SymbolTestSupport.document(#"<g id="a">  <path d="M 10 10 L 20"/></g>"#), file: "icons/x.svg")
        else { return }
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.column, 13)
        XCTAssertTrue(error.message.hasPrefix("<path> d: "), error.message)
        XCTAssertTrue(error.message.hasSuffix("(offset 12 in d)"), error.message)
    }

    func testRootRules() {
        assertError(
            #"<svg xmlns="http://www.w3.org/2000/svg" width="10"><g id="a"/></svg>"#, line: 1, column: 1,
            message: "the root <svg> has no viewBox: a symbol needs one, e.g. viewBox=\"0 0 100 100\"")
        assertError(
            #"<svg viewBox="0 0 0 100"/>"#, line: 1, column: 1,
            message: "<svg> 'viewBox': width and height must be positive, got '0 0 0 100'")
        assertError(
            #"<svg viewBox="0 0 2001 100"/>"#, line: 1, column: 1,
            message: "the viewBox is more than 20 times wider than high")
        assertError(
            #"<svg viewBox="0 0 1e999 100"/>"#, line: 1, column: 1,
            message: "<svg> 'viewBox': the number 1e999 is out of range")
        assertError(
            #"<html xmlns="http://www.w3.org/1999/xhtml"/>"#, line: 1, column: 1,
            message: "the root element is <html>: a symbol file is an <svg> document")
        assertError(
            #"<svg xmlns="urn:other" viewBox="0 0 1 1"/>"#, line: 1, column: 1,
            message: "the root element is <svg>: a symbol file is an <svg> document")
    }

    func testBadValuesNameTheAttribute() {
        assertError(
            SymbolTestSupport.document(
                #"<g id="a"><rect width="1" height="1" transform="rotate(1 2)"/></g>"#), line: 2, column: 11,
            message: "<rect> 'transform': rotate at offset 0 takes an angle [cx cy], got 2 numbers")
        assertError(
            SymbolTestSupport.document(#"<g id="a"><rect width="1" height="1" transform="spin(3)"/></g>"#),
            line: 2, column: 11,
            message:
                "<rect> 'transform': unknown transform 'spin' at offset 0 (expected matrix, translate, scale, rotate, skewX or skewY)"
        )
        assertError(
            SymbolTestSupport.document(#"<g id="a"><rect width="10%" height="1"/></g>"#), line: 2, column: 11,
            message:
                "<rect> 'width': expected a length in user units (a number, optionally with px), got '10%'")
        assertError(
            SymbolTestSupport.document(#"<g id="a"><circle r="-1"/></g>"#), line: 2, column: 11,
            message: "<circle> 'r' must not be negative, got -1.0")
        assertError(
            SymbolTestSupport.document(#"<g id="a"><polygon points="1 2 3"/></g>"#), line: 2, column: 11,
            message: "<polygon> 'points': has an odd number of coordinates (3): expected x,y pairs")
        assertError(
            SymbolTestSupport.document(#"<g id="a"><rect width="1" height="1" stroke-linejoin="arcs"/></g>"#),
            line: 2,
            column: 11, message: "<rect> 'stroke-linejoin': expected miter, round or bevel, got 'arcs'")
        assertError(
            SymbolTestSupport.document(
                #"<g id="a"><rect width="1" height="1" transform="scale(1e200)"/></g>"#), line: 2,
            column: 11, message: "<rect> reaches coordinates beyond ±1000000 units of the normalised viewBox")
    }

    func testLimitsOnStrokesAndTheRoot() {
        assertError(
            SymbolTestSupport.document(
                #"<g id="a"><rect width="1" height="1" stroke-miterlimit="1000"/></g>"#), line: 2,
            column: 11, message: "<rect> 'stroke-miterlimit': must be from 1 to 100, got '1000'")
        assertError(
            SymbolTestSupport.document(
                #"<g id="a"><rect width="1" height="1" stroke="red" stroke-width="2e6"/></g>"#),
            line: 2, column: 11, message: "<rect> has a stroke wider than 1000000 units")
        assertError(
            SymbolTestSupport.document(
                #"<g id="a"><rect width="1" height="1"/></g>"#, rootAttributes: #" data-baseline="120""#),
            line: 1, column: 1, message: "data-baseline must lie within the viewBox")
        assertError(
            SymbolTestSupport.document(
                #"<g id="a"><rect width="1" height="1"/></g>"#, rootAttributes: #" transform="scale(2)""#),
            line: 1, column: 1,
            message: "a transform on the root <svg> is not supported: put it on the layer groups")
        assertError(
            SymbolTestSupport.document(
                #"<style>rect { fill: red }</style><g id="a"><rect width="1" height="1"/></g>"#),
            line: 2, column: 1,
            message:
                "<style> is not supported in a symbol (Kiln draws path, circle, ellipse, rect, line, polyline, polygon in <g> layers)"
        )
    }

    func testMissingOversizeAndNonRegularFiles() throws {
        let missing = directory.appendingPathComponent("none.svg").path
        XCTAssertThrowsError(try SymbolCatalog.load(file: missing)) {
            XCTAssertEqual(($0 as? SymbolFileError)?.description, "\(missing): no such symbol file")
        }
        let large = try write("large.svg", String(repeating: " ", count: 4 << 20 + 1))
        XCTAssertThrowsError(try SymbolCatalog.load(file: large)) {
            XCTAssertEqual(
                ($0 as? SymbolFileError)?.message,
                "the file is 4194305 bytes, more than the 4194304 a symbol may have")
        }
        XCTAssertThrowsError(try SymbolCatalog.load(file: directory.path)) {
            XCTAssertEqual(($0 as? SymbolFileError)?.message, "is a directory, not a regular file")
        }
        let fifo = directory.appendingPathComponent("pipe.svg").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try SymbolCatalog.load(file: fifo)) {
            XCTAssertEqual(($0 as? SymbolFileError)?.message, "is a FIFO (named pipe), not a regular file")
        }
    }

    func testElementCountAndNestingAreBounded() {
        let deep = String(repeating: "<g>", count: 40) + String(repeating: "</g>", count: 40)
        let deepError = SymbolTestSupport.error(SymbolTestSupport.document(#"<g id="a">"# + deep + "</g>"))
        XCTAssertEqual(deepError?.message, "elements nested more than 32 deep")
        let many = String(repeating: "<rect width=\"1\" height=\"1\"/>", count: 20_001)
        let manyError = SymbolTestSupport.error(SymbolTestSupport.document(#"<g id="a">"# + many + "</g>"))
        XCTAssertEqual(manyError?.message, "more than 20000 elements: too large for a symbol")
    }
}
