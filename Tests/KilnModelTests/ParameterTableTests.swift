import Foundation
import KilnModel
import XCTest

final class ParameterTableTests: XCTestCase {
    enum Key {
        static let width = ParameterKey<Int>("width")
        static let amount = ParameterKey<Animated<Double>>("amount")
        static let tint = ParameterKey<Animated<RGBA>>("tint")
        static let center = ParameterKey<Animated<Point2>>("center")
        static let mode = ParameterKey<String>("mode")
        static let enabled = ParameterKey<Bool>("enabled")
        static let label = ParameterKey<String>("label")
        static let stops = ParameterKey<[Animated<RGBA>]>("stops")
        static let image = ParameterKey<URL?>("image")
        static let a = ParameterKey<Animated<Double>>("a")
    }

    let table = ParameterTable([
        Parameter(Key.width, .integer(1...100), help: "Columns."),
        Parameter(Key.amount, .number(0...1), default: .number(0.5), help: "How much."),
        Parameter(Key.tint, .color, default: .color(.white), help: "Tint."),
        Parameter(Key.center, .point(nil), default: .point(Point2(x: 0.5, y: 0.5)), help: "Center."),
        Parameter(Key.mode, .choice(["fill", "fit"]), default: .string("fill"), help: "Mode."),
        Parameter(Key.enabled, .boolean, default: .boolean(true), help: "On."),
        Parameter(Key.label, .string, default: .string(""), help: "Label."),
        Parameter(Key.stops, .colorList, help: "Stops."),
        Parameter(Key.image, .assetPath, default: .string(""), help: "Image."),
    ])
    let path = JSONPath.root.key("layers").index(0)

    func testDefaultsAndPresence() {
        let context = makeContext()
        let decoded = table.decode(
            parse(#"{"width": 3, "type": "x"}"#), path: path, context: context, extraKeys: ["type"])
        XCTAssertTrue(context.diagnostics.isEmpty, "\(context.diagnostics)")
        XCTAssertEqual(decoded[Key.width], 3)
        XCTAssertEqual(decoded[Key.amount].value(at: 0), 0.5)
        XCTAssertEqual(decoded[Key.tint].value(at: 0), .white)
        XCTAssertEqual(decoded[Key.center].value(at: 0), Point2(x: 0.5, y: 0.5))
        XCTAssertEqual(decoded[Key.mode], "fill")
        XCTAssertTrue(decoded[Key.enabled])
        XCTAssertEqual(decoded[Key.stops].count, 0)
        XCTAssertNil(decoded[Key.image])
        XCTAssertTrue(decoded.isPresent(Key.width))
        XCTAssertFalse(decoded.isPresent(Key.amount))
        XCTAssertEqual(decoded.node(Key.width)?.number, 3)
        XCTAssertEqual(decoded.path(Key.width).description, "layers[0].width")
    }

    func testReportsEveryProblem() {
        let context = makeContext()
        let json = """
            {
              "widht": 3,
              "amount": 1.5,
              "tint": "#12345",
              "mode": "fil",
              "enabled": "yes",
              "stops": ["#000000", 4],
              "label": "a",
              "label": "b"
            }
            """
        let decoded = table.decode(parse(json), path: path, context: context)
        let lines = context.diagnostics.map {
            "\($0.location.map(\.description) ?? "-") \($0.path): \($0.message)"
        }
        XCTAssertEqual(
            Set(lines),
            [
                "2:3 layers[0].widht: unknown key 'widht'; did you mean 'width'?",
                "9:3 layers[0].label: duplicate key 'label'",
                "1:1 layers[0]: missing required key 'width'",
                "3:13 layers[0].amount: 1.5 is out of range 0…1",
                ##"4:11 layers[0].tint: invalid color '#12345'; expected "#rgb", "#rgba", "#rrggbb", "#rrggbbaa", a CSS colour name such as "coral" or "transparent", or [r, g, b] / [r, g, b, a] in 0…1"##,
                "5:11 layers[0].mode: 'fil' is not one of fill, fit; did you mean 'fill'?",
                "6:14 layers[0].enabled: expected true or false, got a string",
                ##"7:24 layers[0].stops[1]: expected a color ("#rgb", "#rgba", "#rrggbb", "#rrggbbaa", a CSS colour name such as "coral" or "transparent", or [r, g, b] / [r, g, b, a] in 0…1), got a number"##,
            ])
        XCTAssertEqual(lines.count, 8)
        // Failed values fall back to defaults or in-range placeholders.
        XCTAssertEqual(decoded[Key.amount].value(at: 0), 0.5)
        XCTAssertEqual(decoded[Key.width], 1)
        XCTAssertEqual(decoded[Key.label], "a")
    }

    func testUnknownKeyWithoutSuggestionListsAllowedKeys() {
        let context = makeContext()
        let small = ParameterTable([Parameter(Key.a, .number(0...1), default: .number(0), help: "")])
        _ = small.decode(parse(#"{"zzz": 1}"#), path: .root, context: context, extraKeys: ["type"])
        XCTAssertEqual(context.diagnostics.map(\.message), ["unknown key 'zzz' (allowed keys: a, type)"])
    }

    func testNonObjectIsReported() {
        let context = makeContext()
        let decoded = table.decode(parse("[1]"), path: path, context: context)
        XCTAssertEqual(context.diagnostics.map(\.message), ["expected an object, got an array"])
        XCTAssertEqual(decoded[Key.width], 1)
    }

    func testAssetPathsResolveRelativeToTheJobAndMustExist() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kiln-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data([1, 2, 3]).write(to: directory.appendingPathComponent("logo.png"))

        let context = DecodeContext(file: "job.json", baseDirectory: directory)
        let found = table.decode(parse(#"{"width": 1, "image": "logo.png"}"#), path: path, context: context)
        XCTAssertEqual(found[Key.image]?.lastPathComponent, "logo.png")
        XCTAssertEqual(found.writtenPath(Key.image), "logo.png")
        XCTAssertTrue(context.diagnostics.isEmpty)

        _ = table.decode(parse(#"{"width": 1, "image": "missing.png"}"#), path: path, context: context)
        XCTAssertEqual(context.diagnostics.count, 1)
        XCTAssertTrue(
            context.diagnostics[0].message.hasPrefix("file not found: missing.png"),
            context.diagnostics[0].message)

        XCTAssertEqual(context.resolvePath("/abs/x.png").path, "/abs/x.png")
        XCTAssertEqual(
            context.resolvePath("sub/../y.png"), directory.appendingPathComponent("y.png").standardizedFileURL
        )
    }

    func testKindDescriptions() {
        XCTAssertEqual(ParameterKind.number(0...1).description, "number 0…1 (animatable)")
        XCTAssertEqual(ParameterKind.integer(2...16).description, "integer 2…16")
        XCTAssertEqual(ParameterKind.choice(["a", "b"]).description, "one of a, b")
    }
}
