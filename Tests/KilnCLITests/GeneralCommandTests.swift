import Foundation
import XCTest

final class GeneralCommandTests: XCTestCase {
    func testHelpAndVersion() throws {
        for args in [
            ["--help"], ["render", "--help"], ["preview", "--help"], ["validate", "--help"],
            ["layers", "--help"],
        ] {
            let result = try KilnProcess.run(args)
            XCTAssertEqual(result.status, 0, "\(args)")
            XCTAssertTrue(result.stdout.contains("usage: kiln"), "\(args): \(result.stdout)")
        }
        let version = try KilnProcess.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("kiln "), version.stdout)
        XCTAssertTrue(version.stdout.contains("libavcodec"), version.stdout)
    }

    func testUsageErrorsAre64() throws {
        for args in [
            ["frobnicate"], ["render"], ["render", "jobs/mesh-gradient.json", "--threads", "0"],
            ["preview", "jobs/mesh-gradient.json", "-o", "/tmp/x.png"], ["render", "--bogus", "x.json"],
        ] {
            let result = try KilnProcess.run(args)
            XCTAssertEqual(result.status, 64, "\(args): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("kiln: error: "), "\(args): \(result.stderr)")
        }
    }

    func testLayersListsParameterTables() throws {
        let result = try KilnProcess.run(["layers"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("meshGradient"))
        XCTAssertTrue(result.stdout.contains("smoothsColors"))
        XCTAssertTrue(result.stdout.contains("solid"))
        for name in [
            "Layer kinds (\"type\"):", "Effects (", "Transitions (",
            "shape", "cornerRadius", "rotation", "anchor", "hueRotation", "grayscale", "a bare number sets",
            "Transitions", "twirl —", "blurReplace —", "configuration (downUp|upUp; default \"downUp\")",
            "blendMode, how it mixes", "plusLighter, plusDarker", "mask ({\"layer\": …",
            "compositingGroup (group,",
        ] {
            XCTAssertTrue(result.stdout.contains(name), "kiln layers lacks \(name)")
        }
    }

    /// `kiln limits` is a table: a header line names its columns.
    func testLimitsTableStartsWithAHeader() throws {
        let result = try KilnProcess.run(["limits"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(
            lines.first?.split(separator: " ", omittingEmptySubsequences: true), ["LIMIT", "VALUE", "BOUNDS"])
        XCTAssertTrue(lines.dropFirst().first?.hasPrefix("json-bytes ") ?? false, result.stdout)
    }

    /// `kiln layers NAME`: that layer kind, effect or transition alone, its section named; both
    /// where an effect and a transition share the name.
    func testLayersNameShowsOneKind() throws {
        let twirl = try KilnProcess.run(["layers", "twirl"])
        XCTAssertEqual(twirl.status, 0, twirl.stderr)
        XCTAssertTrue(twirl.stdout.hasPrefix("transition twirl — "), twirl.stdout)
        XCTAssertTrue(twirl.stdout.contains("(no parameters)"), twirl.stdout)
        XCTAssertFalse(twirl.stdout.contains("meshGradient"), twirl.stdout)

        let mesh = try KilnProcess.run(["layers", "meshGradient"])
        XCTAssertTrue(mesh.stdout.hasPrefix("layer meshGradient — "), mesh.stdout)
        XCTAssertTrue(mesh.stdout.contains("    smoothsColors (boolean; default true): "), mesh.stdout)
        XCTAssertFalse(mesh.stdout.contains("twirl"), mesh.stdout)

        let blur = try KilnProcess.run(["layers", "blur"])
        XCTAssertTrue(blur.stdout.hasPrefix("effect blur — "), blur.stdout)
        XCTAssertTrue(blur.stdout.contains("\ntransition blur — "), blur.stdout)
        XCTAssertFalse(blur.stdout.contains("blurReplace"), blur.stdout)

        for (name, hint) in [
            ("twirle", "did you mean 'twirl'?"), ("meshgradiant", "did you mean 'meshGradient'?"),
        ] {
            let unknown = try KilnProcess.run(["layers", name])
            XCTAssertEqual(unknown.status, 64, unknown.stderr)
            XCTAssertTrue(
                unknown.stderr.contains("no layer kind, effect or transition named '\(name)'; \(hint)"),
                unknown.stderr)
            XCTAssertEqual(unknown.stdout, "")
        }
    }

    /// `kiln layers NAME --json`: the listing's shape, holding only that name's entries.
    func testLayersNameJSONHoldsOnlyThatName() throws {
        let result = try KilnProcess.run(["layers", "blur", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["layers", "effects", "transitions"])
        XCTAssertEqual((object["layers"] as? [Any])?.count, 0)
        let effects = try XCTUnwrap(object["effects"] as? [[String: Any]])
        let transitions = try XCTUnwrap(object["transitions"] as? [[String: Any]])
        XCTAssertEqual(effects.map { $0["name"] as? String }, ["blur"])
        XCTAssertEqual(transitions.map { $0["name"] as? String }, ["blur"])
        let radius = try XCTUnwrap((transitions[0]["parameters"] as? [[String: Any]])?.first)
        XCTAssertEqual(radius["name"] as? String, "radius")
        XCTAssertEqual(radius["default"] as? Double, 10)
        XCTAssertNotNil(radius["type"] as? String)
        XCTAssertNotNil(radius["help"] as? String)
    }

    /// `kiln layers --json`: every registered transition with its parameter table.
    func testLayersJSONListsTransitionsWithTheirTables() throws {
        let result = try KilnProcess.run(["layers", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["layers", "transform", "effects", "transitions"])
        let transitions = try XCTUnwrap(object["transitions"] as? [[String: Any]])
        let names = Set(transitions.compactMap { $0["name"] as? String })
        XCTAssertTrue(
            names.isSuperset(of: ["opacity", "twirl", "blurReplace", "combined", "asymmetric"]), "\(names)")
        let blurReplace = try XCTUnwrap(transitions.first { $0["name"] as? String == "blurReplace" })
        XCTAssertEqual(blurReplace["shorthand"] as? String, "configuration")
        let scale = try XCTUnwrap(
            (blurReplace["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "scale" })
        XCTAssertEqual(scale["default"] as? Double, 0.7)
        XCTAssertEqual(scale["range"] as? [Double], [0.1, 1])
        XCTAssertEqual(scale["required"] as? Bool, false)
    }
}
