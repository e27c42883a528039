import Foundation
import KilnModel
import XCTest

@testable import KilnScene

/// Decoding reads values through typed keys (`ParameterKey`) whose `Value` picks the getter. That
/// a key is declared with a kind of its own `Value` is checked by the compiler (`Parameter.init`
/// takes a `ParameterKey<Value>.Kind`); what only running can show is the other half: that the
/// value `ParameterTable.decode` stores for each kind is the one a key of that kind's `Value`
/// reads. A mismatch traps, so reaching the end of these tests is the proof.
final class ParameterKeyContractTests: XCTestCase {
    /// Every table the job format has: the model's (the documented ones, the top level, a layer's
    /// common keys), each layer kind's and its nested objects', each effect's and each transition's.
    private var everyTable: [(owner: String, table: ParameterTable)] {
        JobFormatDocs.tables.map { ($0.id, $0.table) }
            + [
                ("job", ParameterTable(JobLoader.topLevelParameters)),
                ("layer.common", ParameterTable(LayerKind.commonParameters + LayerKind.containerParameters)),
                ("composition.trim", PlaybackTiming.trimTable(CompositionLayer.wording)),
                ("symbol.replacements", SymbolLayer.replacementTable),
            ]
            + LayerRegistry.effects.map { ("effect.\($0.name)", $0.parameters) }
            + LayerRegistry.transitions.map { ("transition.\($0.name)", $0.parameters) }
    }

    func testEveryParameterOfTheRegistryReadsThroughAKeyOfItsKind() throws {
        var read = 0
        for (owner, table) in everyTable {
            // An empty object: every parameter holds its default or its placeholder.
            let context = DecodeContext(file: "job.json", baseDirectory: URL(fileURLWithPath: "/"))
            let decoded = table.decode(
                try JSONParser.parse(Array("{}".utf8)), path: .root.key(owner), context: context)
            for parameter in table.parameters {
                Self.read(parameter, from: decoded)
                read += 1
            }
        }
        // As many as the registry had when this test was written, less a margin for removals.
        XCTAssertGreaterThan(read, 250, "the registry's tables were not all found")
    }

    /// Each kind a key accepts, declared through the key, decodes into what that key reads.
    func testEveryKeyKindDecodesToItsValue() throws {
        let number = ParameterKey<Animated<Double>>("number")
        let constant = ParameterKey<Animated<Double>>("constant")
        let integer = ParameterKey<Int>("integer"), boolean = ParameterKey<Bool>("boolean")
        let string = ParameterKey<String>("string"), choice = ParameterKey<String>("choice")
        let color = ParameterKey<Animated<RGBA>>("color"), point = ParameterKey<Animated<Point2>>("point")
        let colors = ParameterKey<[Animated<RGBA>]>("colors")
        let points = ParameterKey<[Animated<Point2>]>("points")
        let asset = ParameterKey<URL?>("asset"), structured = ParameterKey<JSONNode?>("structured")
        let table = ParameterTable([
            Parameter(number, .number(0...10), default: .number(1), help: ""),
            Parameter(constant, .constantNumber(0...10), default: .integer(2), help: ""),
            Parameter(integer, .integer(0...10), default: .integer(3), help: ""),
            Parameter(boolean, .boolean, default: .boolean(true), help: ""),
            Parameter(string, .string, default: .string("s"), help: ""),
            Parameter(choice, .choice(["a", "b"]), default: .string("b"), help: ""),
            Parameter(color, .color, default: .color(.white), help: ""),
            Parameter(point, .point(nil), default: .point(Point2(x: 1, y: 2)), help: ""),
            Parameter(colors, .colorList, help: ""),
            Parameter(points, .pointList(nil), help: ""),
            Parameter(asset, .assetPath, default: .string(""), help: ""),
            Parameter(structured, .structured("any", schema: .anything), default: .string("none"), help: ""),
        ])
        let context = DecodeContext(file: "job.json", baseDirectory: URL(fileURLWithPath: "/"))
        let json = ##"{"number": 4, "colors": ["#fff"], "points": [[1, 2]], "structured": {"a": 1}}"##
        let p = table.decode(try JSONParser.parse(Array(json.utf8)), path: .root, context: context)
        XCTAssertTrue(context.diagnostics.isEmpty, "\(context.diagnostics)")
        XCTAssertEqual(p[number].value(at: 0), 4)
        XCTAssertEqual(p[constant].value(at: 0), 2)
        XCTAssertEqual(p[integer], 3)
        XCTAssertTrue(p[boolean])
        XCTAssertEqual(p[string], "s")
        XCTAssertEqual(p[choice], "b")
        XCTAssertEqual(p[color].value(at: 0), .white)
        XCTAssertEqual(p[point].value(at: 0), Point2(x: 1, y: 2))
        XCTAssertEqual(p[colors].count, 1)
        XCTAssertEqual(p[points].count, 1)
        XCTAssertNil(p[asset])
        XCTAssertEqual(p.writtenPath(asset), "")
        XCTAssertNotNil(p[structured]?.members)
        XCTAssertTrue(p.isPresent(structured))
        XCTAssertFalse(p.isPresent(string))
        XCTAssertEqual(p.path(number).description, "number")
    }

    /// Reads a parameter through the key its kind calls for; exhaustive, so a new kind must say
    /// which `Value` its keys have.
    private static func read(_ parameter: Parameter, from p: DecodedParameters) {
        let name = parameter.name
        switch parameter.kind {
        case .number, .constantNumber: _ = p[ParameterKey<Animated<Double>>(name)]
        case .integer: _ = p[ParameterKey<Int>(name)]
        case .boolean: _ = p[ParameterKey<Bool>(name)]
        case .string, .choice: _ = p[ParameterKey<String>(name)]
        case .color: _ = p[ParameterKey<Animated<RGBA>>(name)]
        case .point: _ = p[ParameterKey<Animated<Point2>>(name)]
        case .colorList: _ = p[ParameterKey<[Animated<RGBA>]>(name)]
        case .pointList: _ = p[ParameterKey<[Animated<Point2>]>(name)]
        case .assetPath:
            _ = p[ParameterKey<URL?>(name)]
            _ = p.writtenPath(ParameterKey<URL?>(name))
        case .structured: _ = p[ParameterKey<JSONNode?>(name)]
        }
    }
}
