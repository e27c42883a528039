import Foundation
import KilnModel
import XCTest

func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONNode {
    do {
        return try JSONParser.parse(Array(text.utf8))
    } catch {
        XCTFail("unexpected syntax error \(error)", file: file, line: line)
        return JSONNode(value: .null, location: SourceLocation(line: 0, column: 0))
    }
}

func syntaxError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONSyntaxError? {
    do {
        _ = try JSONParser.parse(Array(text.utf8))
        XCTFail("expected a syntax error", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

func makeContext(baseDirectory: URL = URL(fileURLWithPath: "/tmp")) -> DecodeContext {
    DecodeContext(file: "job.json", baseDirectory: baseDirectory)
}

/// Stand-ins for the scene module's layer kinds, shaped like the real ones.
struct SolidContent: LayerContent {
    let color: Animated<RGBA>
}

struct MeshContent: LayerContent {
    let width: Int
    let height: Int
    let points: [Animated<Point2>]
    let colors: [Animated<RGBA>]
    let smoothsColors: Bool
}

let testKinds: [LayerKind] = [
    LayerKind(
        name: "solid", summary: "Fills the frame with a color.",
        parameters: ParameterTable([Parameter("color", .color, help: "Fill color.")]),
        make: { parameters, _, _ in SolidContent(color: parameters.color("color")) }),
    LayerKind(
        name: "meshGradient", summary: "A grid of points and colors.",
        parameters: ParameterTable([
            Parameter("width", .integer(2...16), help: "Columns."),
            Parameter("height", .integer(2...16), help: "Rows."),
            Parameter("points", .pointList(-1...2), help: "Grid points, row by row."),
            Parameter("colors", .colorList, help: "One color per point."),
            Parameter("smoothsColors", .boolean, default: .boolean(true), help: "Bicubic or bilinear."),
        ]),
        make: { parameters, path, context in
            let width = parameters.integer("width"), height = parameters.integer("height")
            let points = parameters.points("points"), colors = parameters.colors("colors")
            guard points.count == width * height else {
                context.error(
                    "expected \(width * height) points (width × height), got \(points.count)",
                    at: parameters.node("points"), path: parameters.path("points"))
                return nil
            }
            return MeshContent(
                width: width, height: height, points: points, colors: colors,
                smoothsColors: parameters.boolean("smoothsColors"))
        }),
]

extension Array where Element == Diagnostic {
    /// Finds the diagnostic at a path; fails the test when absent.
    func at(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> Diagnostic? {
        let match = first { $0.path.description == path }
        if match == nil {
            XCTFail(
                "no diagnostic at \(path); got:\n\(map(\.description).joined(separator: "\n"))", file: file,
                line: line)
        }
        return match
    }
}
