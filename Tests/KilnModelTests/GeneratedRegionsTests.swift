import KilnModel
import XCTest

final class GeneratedRegionsTests: XCTestCase {
    private let regions = GeneratedRegions([
        .init(id: "a", markdown: "| A |"), .init(id: "b", markdown: "line 1\nline 2"),
    ])

    func testRewritesOnlyInsideTheMarkers() throws {
        let document = """
            # Title
            <!-- BEGIN GENERATED: a -->
            stale
            <!-- END GENERATED -->
            prose kept
            <!-- BEGIN GENERATED: b -->
            <!-- END GENERATED -->
            """
        let expected = """
            # Title
            <!-- BEGIN GENERATED: a -->
            | A |
            <!-- END GENERATED -->
            prose kept
            <!-- BEGIN GENERATED: b -->
            line 1
            line 2
            <!-- END GENERATED -->
            """
        XCTAssertEqual(try regions.rewrite(document, file: "doc.md"), expected)
        XCTAssertEqual(
            try regions.rewrite(expected, file: "doc.md"), expected, "a fresh document is a fixed point")
    }

    func testAGeneratedRegionWithoutAPlaceIsAnError() {
        let document = "<!-- BEGIN GENERATED: a -->\n<!-- END GENERATED -->\n"
        XCTAssertThrowsError(try regions.rewrite(document, file: "doc.md")) { error in
            XCTAssertTrue("\(error)".contains("no place for generated region(s) b"), "\(error)")
        }
    }

    func testMarkerProblemsNameTheLine() {
        let cases = [
            ("<!-- BEGIN GENERATED: c -->\n<!-- END GENERATED -->", "doc.md:1: unknown generated region 'c'"),
            ("x\n<!-- BEGIN GENERATED: a -->\nno end", "doc.md:2: region 'a' has no END GENERATED line"),
            ("<!-- END GENERATED -->", "doc.md:1: END GENERATED without a BEGIN"),
            (
                "<!-- BEGIN GENERATED: a -->\n<!-- BEGIN GENERATED: b -->",
                "doc.md:2: region 'b' begins inside region 'a'"
            ),
        ]
        for (document, message) in cases {
            XCTAssertThrowsError(try regions.rewrite(document, file: "doc.md")) { error in
                XCTAssertTrue("\(error)".hasPrefix(message), "\(error) should start with \(message)")
            }
        }
    }

    func testTablesShowTypeDefaultAndHelp() {
        enum SampleKey {
            static let size = ParameterKey<Animated<Double>>("size")
            static let tint = ParameterKey<Animated<RGBA>>("tint")
            static let path = ParameterKey<URL?>("path")
            static let stops = ParameterKey<[Animated<RGBA>]>("stops")
        }

        let table = ParameterTable([
            Parameter(SampleKey.size, .number(0...10), default: .number(2), help: "how big | wide"),
            Parameter(
                SampleKey.tint, .color, default: .color(RGBA(r: 1, g: 0.6, b: 0.2, a: 1)), help: "colour"),
            Parameter(SampleKey.path, .assetPath, help: "a file"),
            Parameter(SampleKey.stops, .colorList, help: "two or more"),
        ])
        XCTAssertEqual(
            ParameterTableMarkdown.table(table),
            """
            | Key | Type | Default | Meaning |
            |---|---|---|---|
            | `size` | number 0…10 (animatable) | `2` | how big \\| wide |
            | `tint` | color (animatable) | `#ff9933` | colour |
            | `path` | file path | required | a file |
            | `stops` | array of colors (animatable) | none | two or more |
            """)
    }
}
