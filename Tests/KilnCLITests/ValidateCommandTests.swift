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

    /// A layer's effects are checked whatever else is wrong with it: a missing or corrupt file,
    /// an unknown transition or a missing child no longer hide them. 66 only when every problem
    /// is a missing file.
    func testEffectsAreCheckedWhateverElseIsWrongWithTheLayer() throws {
        _ = try write("corrupt.png", "not a PNG at all")
        func validate(_ layer: String) throws -> KilnProcess.Result {
            let path = try write(
                "layer.json",
                #"{"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1}, "layers": ["#
                    + layer + "]}")
            return try KilnProcess.run(["validate", path])
        }
        let cases: [(layer: String, expected: [String])] = [
            (
                #"{"type": "image", "path": "nope.png", "effects": [{"blur": -5}]}"#,
                ["nope.png", "layers[0].effects[0].blur"]
            ),
            (
                #"{"type": "image", "path": "corrupt.png", "effects": [{"blur": -5}]}"#,
                ["corrupt.png", "layers[0].effects[0].blur"]
            ),
            (
                #"{"type": "image", "path": "nope.png", "effects": [{"blurr": 5}]}"#,
                ["nope.png", "unknown effect 'blurr'"]
            ),
            (
                #"{"type": "group", "layers": [{"type": "image", "path": "nope.png"}], "effects": [{"blur": -5}]}"#,
                ["layers[0].layers[0]", "nope.png", "layers[0].effects[0].blur"]
            ),
            (
                ##"{"type": "solid", "color": "#fff", "appear": 0.2, "transition": "swirl", "effects": [{"blurr": 5}]}"##,
                ["swirl", "unknown effect 'blurr'"]
            ),
            (#"{"type": "nonsense", "effects": [{"blurr": 5}]}"#, ["'nonsense'", "unknown effect 'blurr'"]),
        ]
        for (layer, expected) in cases {
            let result = try validate(layer)
            XCTAssertEqual(result.status, 65, "\(layer)\n\(result.stderr)")
            for text in expected {
                XCTAssertTrue(
                    result.stderr.contains(text), "'\(text)' missing for \(layer):\n\(result.stderr)")
            }
        }
        let missingOnly = try validate(#"{"type": "image", "path": "nope.png", "effects": [{"blur": 5}]}"#)
        XCTAssertEqual(missingOnly.status, 66, missingOnly.stderr)
    }

    /// A path written from the working directory (as a shell would read it) is found there and
    /// the message says paths are relative to the job file, with the path that would work.
    func testAPathRelativeToTheWorkingDirectoryIsExplained() throws {
        let jobs = directory.appendingPathComponent("jobs")
        try FileManager.default.createDirectory(
            at: jobs.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: KilnProcess.repositoryRoot.appendingPathComponent("jobs/photos/aurora.png"),
            to: jobs.appendingPathComponent("photos/aurora.png"))
        let job = jobs.appendingPathComponent("card.json").path
        try
            #"{"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1}, "layers": [{"type": "image", "path": "jobs/photos/aurora.png", "size": [64, 64]}]}"#
            .write(toFile: job, atomically: true, encoding: .utf8)
        let result = try KilnProcess.run(["validate", "jobs/card.json"], cwd: directory)
        XCTAssertEqual(result.status, 66, result.stderr)
        XCTAssertTrue(result.stderr.contains("paths are relative to the job file's folder"), result.stderr)
        XCTAssertTrue(result.stderr.contains(#"from the job it is "photos/aurora.png""#), result.stderr)
        // Outside the asset roots the file is not named: the message must not tell what exists there.
        let other = directory.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let rooted = try KilnProcess.run(
            ["validate", "--asset-root", other.path, "jobs/card.json"], cwd: directory)
        XCTAssertFalse(rooted.stderr.contains("relative to the job file"), rooted.stderr)
        let elsewhere = try KilnProcess.run(["validate", job], cwd: jobs)
        XCTAssertEqual(elsewhere.status, 66, elsewhere.stderr)
        XCTAssertFalse(
            elsewhere.stderr.contains("relative to the job file"), "no such file from there either")
    }
}
