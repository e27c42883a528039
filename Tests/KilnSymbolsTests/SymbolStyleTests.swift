import KilnRaster
import KilnSymbols
import XCTest

final class SymbolStyleTests: XCTestCase {
    private func layer(_ body: String, groupAttributes: String = "") throws -> SymbolArtworkLayer {
        try SymbolTestSupport.parse(
            SymbolTestSupport.document(#"<g id="a" "# + groupAttributes + ">" + body + "</g>")
        )
        .layers[0]
    }

    func testDefaultsAreBlackFillNonZeroAndNoStroke() throws {
        let shape = try layer(#"<rect width="10" height="10"/>"#).shapes[0]
        XCTAssertEqual(shape.fill, .nonZero)
        XCTAssertNil(shape.stroke)
        XCTAssertEqual(shape.fillOpacity, 1)
        XCTAssertEqual(shape.strokeOpacity, 1)
    }

    func testInheritedPropertiesFlowDownGroupsAndChildrenOverrideThem() throws {
        let shapes = try layer(
            #"""
            <g stroke-width="3" stroke-linejoin="bevel" fill-opacity="0.5">
              <g stroke-linecap="round" stroke-miterlimit="8">
                <rect width="10" height="10"/>
                <rect width="10" height="10" fill="none" stroke-linejoin="inherit" style="stroke-linecap: square"/>
              </g>
            </g>
            """#, groupAttributes: #"fill-rule="evenodd" stroke="gray""#
        ).shapes
        let first = try XCTUnwrap(shapes.first)
        XCTAssertEqual(first.fill, .evenOdd)
        XCTAssertEqual(first.stroke, StrokeStyle(width: 3, cap: .round, join: .bevel, miterLimit: 8))
        XCTAssertEqual(first.fillOpacity, 0.5)
        XCTAssertNil(shapes[1].fill)
        XCTAssertEqual(shapes[1].stroke, StrokeStyle(width: 3, cap: .square, join: .bevel, miterLimit: 8))
    }

    func testStyleDeclarationsWinOverPresentationAttributes() throws {
        let shape = try layer(
            #"<rect width="10" height="10" fill="none" stroke="none" style="fill: red !important; /* note */ STROKE:#000;stroke-width:2px"/>"#
        ).shapes[0]
        XCTAssertEqual(shape.fill, .nonZero)
        XCTAssertEqual(shape.stroke?.width, 2)
    }

    func testOpacityMultipliesDownGroupsAndIntoFillAndStrokeOpacity() throws {
        let shape = try layer(
            #"<g opacity="0.5"><rect width="10" height="10" opacity="50%" fill-opacity="0.4" stroke="black" stroke-opacity="2"/></g>"#,
            groupAttributes: #"opacity="0.8""#
        ).shapes[0]
        XCTAssertEqual(shape.fillOpacity, 0.8 * 0.5 * 0.5 * 0.4, accuracy: 1e-12)
        XCTAssertEqual(
            shape.strokeOpacity, 0.8 * 0.5 * 0.5, accuracy: 1e-12, "stroke-opacity is clamped to 1")
    }

    func testOpacityDoesNotInheritButInheritTakesTheParentsValue() throws {
        let shapes = try layer(
            #"<g opacity="0.5"><rect width="1" height="1"/><rect width="1" height="1" opacity="inherit"/></g>"#
        ).shapes
        XCTAssertEqual(shapes[0].fillOpacity, 0.5, accuracy: 1e-12)
        XCTAssertEqual(shapes[1].fillOpacity, 0.25, accuracy: 1e-12)
    }

    func testHiddenElementsDrawNothing() throws {
        let shapes = try layer(
            #"""
            <g display="none"><rect width="1" height="1"/></g>
            <g visibility="hidden"><rect width="1" height="1"/><rect width="2" height="2" visibility="visible"/></g>
            <rect width="3" height="3" style="display:none"/>
            <rect width="4" height="4" fill="none"/>
            <rect width="5" height="5"/>
            """#
        ).shapes
        XCTAssertEqual(shapes.count, 2)
        XCTAssertEqual(shapes.map { SymbolTestSupport.area($0.path).magnitude }, [4, 25])
    }

    func testPropertiesKilnIgnoresAreAcceptedAndNoneOnlyOnesMustBeNone() throws {
        XCTAssertNoThrow(
            try layer(
                #"<rect width="1" height="1" color="red" font-size="3" clip-path="none" stroke-dasharray="none"/>"#
            ))
        let error = SymbolTestSupport.error(
            SymbolTestSupport.document(
                #"<g id="a"><rect width="1" height="1" style="stroke-dasharray: 2 1"/></g>"#))
        XCTAssertEqual(
            error?.message,
            "<rect> style 'stroke-dasharray': is not supported in a symbol (only none), got '2 1'")
    }
}
