import KilnModel
import KilnRaster
import KilnSymbols
import XCTest

final class SymbolLayerTests: XCTestCase {
    func testLayersInOrderWithLevelsAndThresholds() throws {
        let artwork = try SymbolCatalog.load(file: SymbolTestSupport.fixturePath("layers.svg"))
        XCTAssertEqual(artwork.name, "layers")
        XCTAssertEqual(artwork.layers.map(\.name), ["dot", "inner", "outer"])
        XCTAssertEqual(artwork.layers.map(\.level), [.primary, .secondary, .tertiary])
        XCTAssertEqual(artwork.layers.map(\.variableThreshold), [nil, 0.33, 0.66])
        XCTAssertEqual(
            artwork.layerInfo,
            [
                SymbolLayerInfo(name: "dot"),
                SymbolLayerInfo(name: "inner", level: .secondary, variableThreshold: 0.33),
                SymbolLayerInfo(name: "outer", level: .tertiary, variableThreshold: 0.66),
            ])
        XCTAssertEqual(artwork.size, SIMD2(120, 100))
        XCTAssertEqual(artwork.baseline, 80)
        XCTAssertEqual(artwork.capHeight, 60)
        XCTAssertEqual(artwork.layer(named: "inner")?.shapes.count, 1)
        XCTAssertNil(artwork.layer(named: "missing"))
    }

    func testBaselineAndCapHeightDefault() throws {
        let artwork = try SymbolTestSupport.parse(
            SymbolTestSupport.document(#"<g id="a"><rect width="10" height="10"/></g>"#))
        XCTAssertEqual(artwork.baseline, 85)
        XCTAssertEqual(artwork.capHeight, 70)
    }

    func testAnyViewBoxIsNormalisedToHeight100() throws {
        // 24 units high, starting at (-2, 4): every coordinate is shifted by the origin and scaled by 100/24.
        let text = SymbolTestSupport.document(
            #"<g id="a"><rect x="-2" y="4" width="12" height="6"/></g>"#, viewBox: "-2 4 36 24",
            rootAttributes: #" data-baseline="22" data-cap-height="12""#)
        let artwork = try SymbolTestSupport.parse(text)
        let unit = 100.0 / 24
        XCTAssertEqual(artwork.size.x, 36 * unit, accuracy: 1e-9)
        XCTAssertEqual(artwork.size.y, 100)
        XCTAssertEqual(artwork.baseline, 18 * unit, accuracy: 1e-9)
        XCTAssertEqual(artwork.capHeight, 12 * unit, accuracy: 1e-9)
        let bounds = try XCTUnwrap(artwork.layer(named: "a")).bounds
        XCTAssertPoint(bounds.min, SIMD2(0, 0))
        XCTAssertPoint(bounds.max, SIMD2(12 * unit, 6 * unit))
    }

    func testEditorExportWithForeignElementsAndEmptyDefs() throws {
        let artwork = try SymbolCatalog.load(file: SymbolTestSupport.fixturePath("editor-export.svg"))
        XCTAssertEqual(artwork.layers.map(\.name), ["body", "badge"])
        XCTAssertEqual(artwork.size, SIMD2(100, 100))
        // The ellipse is display="none": the polyline, polygon and line remain.
        XCTAssertEqual(artwork.layer(named: "badge")?.shapes.count, 3)
    }

    func testLayerBoundsIncludeHalfTheStrokeWidth() throws {
        let text = SymbolTestSupport.document(
            #"""
            <g id="a" fill="none" stroke="#000" stroke-width="4">
              <line x1="10" y1="50" x2="90" y2="50"/>
              <circle cx="50" cy="20" r="5" stroke="none" fill="black"/>
            </g>
            """#)
        let layer = try XCTUnwrap(SymbolTestSupport.parse(text).layer(named: "a"))
        XCTAssertPoint(layer.bounds.min, SIMD2(8, 15), accuracy: 1e-6)
        XCTAssertPoint(layer.bounds.max, SIMD2(92, 52), accuracy: 1e-6)
    }

    func testCurveBoundsAreTheCurvesExtentNotItsControlPoints() throws {
        // The quadratic's control point is at y = 0, but the curve only reaches y = 50.
        let text = SymbolTestSupport.document(#"<g id="a"><path d="M0 100 Q50 0 100 100 Z"/></g>"#)
        let layer = try XCTUnwrap(SymbolTestSupport.parse(text).layer(named: "a"))
        XCTAssertEqual(layer.bounds.min.y, 50, accuracy: 1e-9)
        XCTAssertEqual(layer.bounds.max.y, 100, accuracy: 1e-9)
    }
}
