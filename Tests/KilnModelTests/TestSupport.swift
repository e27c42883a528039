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

enum TestKey {
    static let color = ParameterKey<Animated<RGBA>>("color")
    static let width = ParameterKey<Int>("width")
    static let height = ParameterKey<Int>("height")
    static let points = ParameterKey<[Animated<Point2>]>("points")
    static let colors = ParameterKey<[Animated<RGBA>]>("colors")
    static let smoothsColors = ParameterKey<Bool>("smoothsColors")
}

let testKinds: [LayerKind] = [
    LayerKind(
        name: "solid", summary: "Fills the frame with a color.",
        parameters: ParameterTable([Parameter(TestKey.color, .color, help: "Fill color.")]),
        make: { parameters, _, _ in SolidContent(color: parameters[TestKey.color]) }),
    LayerKind(
        name: "meshGradient", summary: "A grid of points and colors.",
        parameters: ParameterTable([
            Parameter(TestKey.width, .integer(2...16), help: "Columns."),
            Parameter(TestKey.height, .integer(2...16), help: "Rows."),
            Parameter(TestKey.points, .pointList(-1...2), help: "Grid points, row by row."),
            Parameter(TestKey.colors, .colorList, help: "One color per point."),
            Parameter(TestKey.smoothsColors, .boolean, default: .boolean(true), help: "Bicubic or bilinear."),
        ]),
        make: { parameters, path, context in
            let width = parameters[TestKey.width], height = parameters[TestKey.height]
            let points = parameters[TestKey.points], colors = parameters[TestKey.colors]
            guard points.count == width * height else {
                context.error(
                    "expected \(width * height) points (width × height), got \(points.count)",
                    at: parameters.node(TestKey.points), path: parameters.path(TestKey.points))
                return nil
            }
            return MeshContent(
                width: width, height: height, points: points, colors: colors,
                smoothsColors: parameters[TestKey.smoothsColors])
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
