import Foundation
import XCTest

final class ValidateCommandTests: TemporaryDirectoryTestCase {
    func testShippedJobsAreValid() throws {
        let jobs = try FileManager.default.contentsOfDirectory(
            atPath: KilnProcess.repositoryRoot.appendingPathComponent("jobs").path
        ).filter { $0.hasSuffix(".json") }.map { "jobs/" + $0 }
        XCTAssertFalse(jobs.isEmpty)
        let result = try KilnProcess.run(["validate"] + jobs)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("jobs/mesh-gradient.json: ok"), result.stdout)
    }

    func testMalformedJSONSaysWhere() throws {
        let path = try write(
            "broken.json", "{\n  \"kiln\": 1,\n  \"output\": {\"width\": 64\n    \"height\": 64}\n}\n")
        let result = try KilnProcess.run(["validate", path])
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.stderr.contains("kiln: error: \(path):4:5:"), result.stderr)
    }

    func testEveryProblemIsReportedWithItsJSONPath() throws {
        let path = try write(
            "bad.json",
            """
            {
              "kiln": 1,
              "output": {"width": 1921, "height": 1080, "fps": 0, "duration": 2, "crf": 80, "gopp": 10},
              "layers": [
                {"type": "solid", "color": 12},
                {"type": "meshGradient", "width": 3, "height": 3,
                 "points": [[0,0],[0.5,0],[1,0],[0,0.5],[0.5,0.5],[1,0.5],[0,1],[0.5,1],[1.5,1]],
                 "colors": ["#000000","#000000","#000000","#0000ff","#0000ff","#0000ff","#00ff00","#00ff00","#00ff00"],
                 "smoothColors": true},
                {"type": "meshGradiant"}
              ]
            }
            """)
        let result = try KilnProcess.run(["validate", path])
        XCTAssertEqual(result.status, 65)
        let err = result.stderr
        for expected in [
            "output.width", "even", "output.fps", "output.crf", "0…51", "'gopp'", "did you mean 'gop'",
            "layers[0].color", "layers[1].points[8]", "layers[1]", "did you mean 'smoothsColors'",
            "layers[2].type", "did you mean 'meshGradient'",
        ] {
            XCTAssertTrue(err.contains(expected), "missing '\(expected)' in:\n\(err)")
        }
        XCTAssertGreaterThanOrEqual(err.components(separatedBy: "kiln: error:").count - 1, 7, err)
        // Each diagnostic names the file and a line:column.
        XCTAssertTrue(err.contains("\(path):3:"), err)
        XCTAssertTrue(err.contains("\(path):5:"), err)
    }

    func testMissingFileIs66() throws {
        let result = try KilnProcess.run(["validate", directory.appendingPathComponent("nope.json").path])
        XCTAssertEqual(result.status, 66)
        XCTAssertTrue(result.stderr.hasPrefix("kiln: error:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("nope.json"), result.stderr)
    }

    func testJSONOutput() throws {
        let path = try write(
            "typo.json",
            #"{"kiln": 1, "output": {"width": "wide", "height": 64, "fps": 30, "duration": 1}, "layers": []}"#
        )
        let result = try KilnProcess.run(["validate", "--json", path])
        XCTAssertEqual(result.status, 65)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        let errors = parsed?.first?["errors"] as? [[String: Any]]
        XCTAssertEqual(errors?.first?["path"] as? String, "output.width")
        XCTAssertEqual(errors?.first?["line"] as? Int, 1)
    }
}

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
