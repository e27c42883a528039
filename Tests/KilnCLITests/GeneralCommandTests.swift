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
            "shape", "cornerRadius", "rotation", "anchor", "hueRotation", "grayscale", "a bare number sets",
            "Transitions", "twirl —", "blurReplace —", "configuration (downUp|upUp; default \"downUp\")",
        ] {
            XCTAssertTrue(result.stdout.contains(name), "kiln layers lacks \(name)")
        }
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
