import Foundation
import KilnModel
import XCTest

final class JobLoaderTests: XCTestCase {
    static let example = """
        {
          "kiln": 1,
          "output": { "path": "mesh.mp4", "width": 1920, "height": 1080, "fps": 30, "duration": 6,
                      "crf": 18, "preset": "veryfast", "gop": 60 },
          "layers": [
            { "type": "solid", "color": "#101018" },
            { "type": "meshGradient", "width": 3, "height": 3, "smoothsColors": true,
              "points": [[0,0],[0.5,0],[1,0],[0,0.5],
                         {"keyframes": [{"t": 0, "v": [0.5,0.5]}, {"t": 3, "v": [0.9,0.3], "ease": "easeInOut"}]},
                         [1,0.5],[0,1],[0.5,1],[1,1]],
              "colors": ["#000000","#000000","#000000","#0000ff","#0000ff","#0000ff","#00ff00","#00ff00","#00ff00"],
              "opacity": {"spring": {"from": 0, "to": 1, "at": 0.5, "response": 0.5, "dampingFraction": 0.8}} }
          ]
        }
        """

    private func decode(_ json: String, file: String = "jobs/x.json") throws(JobLoadError) -> Job {
        try JobLoader.decode(
            bytes: Array(json.utf8), file: file, baseDirectory: URL(fileURLWithPath: "/work/jobs"),
            kinds: testKinds)
    }

    private func diagnostics(_ json: String) -> [Diagnostic] {
        do {
            let job = try decode(json)
            XCTFail("expected errors, got a job with \(job.layers.count) layers")
            return []
        } catch {
            XCTAssertEqual(error.exitCode, 65)
            guard case .invalid(let diagnostics) = error else { return [] }
            return diagnostics
        }
    }

    func testDecodesTheExample() throws {
        let job = try decode(Self.example)
        XCTAssertEqual(job.file, "jobs/x.json")
        XCTAssertEqual(job.output.path, URL(fileURLWithPath: "/work/jobs/mesh.mp4"))
        XCTAssertEqual(job.output.width, 1920)
        XCTAssertEqual(job.output.frameRate, Rational(numerator: 30, denominator: 1))
        XCTAssertEqual(job.output.frameCount, 180)
        XCTAssertEqual(job.output.preset, "veryfast")
        XCTAssertEqual(job.output.gop, 60)
        XCTAssertEqual(job.layers.map(\.kind), ["solid", "meshGradient"])
        XCTAssertEqual(job.layers.map(\.path.description), ["layers[0]", "layers[1]"])

        let solid = try XCTUnwrap(job.layers[0].content as? SolidContent)
        XCTAssertEqual(solid.color.value(at: 0), RGBA(r: 16.0 / 255, g: 16.0 / 255, b: 24.0 / 255, a: 1))
        XCTAssertTrue(job.layers[0].opacity.isConstant)

        let mesh = try XCTUnwrap(job.layers[1].content as? MeshContent)
        XCTAssertEqual(mesh.width, 3)
        XCTAssertEqual(mesh.points.count, 9)
        XCTAssertEqual(mesh.colors.count, 9)
        XCTAssertTrue(mesh.smoothsColors)
        XCTAssertEqual(mesh.points[4].value(at: 0), Point2(x: 0.5, y: 0.5))
        XCTAssertEqual(mesh.points[4].value(at: 10), Point2(x: 0.9, y: 0.3))
        XCTAssertEqual(mesh.colors[3].value(at: 0), RGBA(r: 0, g: 0, b: 1, a: 1))
        let opacity = job.layers[1].opacity
        XCTAssertEqual(opacity.value(at: 0.5), 0)
        XCTAssertEqual(opacity.value(at: 10), 1, accuracy: 1e-9)
    }

    func testReportsEveryProblemAtOnce() {
        let json = """
            {
              "kiln": 1,
              "outptu": 3,
              "output": { "width": 1921, "height": "1080", "fps": 0, "duration": -1, "crf": 60 },
              "layers": [
                { "type": "solid", "color": "#12345" },
                { "type": "meshGradiant" },
                { "type": "meshGradient", "width": 2, "height": 2, "smoothColors": false,
                  "points": [[0,0],[1,0],[0,1],
                             {"keyframes": [{"t": 1, "v": [1,1]}, {"t": 1, "v": [0.5,0.5]}]}],
                  "colors": ["#000000","#ffffff","#000000","#ffffff"],
                  "opacity": 2 },
                { "type": "solid", "color": "#000000" },
                { "type": "meshGradient", "width": 2, "height": 2, "points": [[0,0]], "colors": [] }
              ]
            }
            """
        let found = diagnostics(json)
        let expected: [(String, Int, Int, String)] = [
            ("outptu", 3, 3, "unknown key 'outptu'; did you mean 'output'?"),
            (
                "output.width", 4, 24,
                "must be even for h264 (its 4:2:0 colour comes in 2×2 blocks), got 1921; vp9, prores4444, gif, webp, png-sequence take odd sizes"
            ),
            ("output.height", 4, 40, "expected an integer, got a string"),
            ("output.fps", 4, 55, "frame rate must be > 0 and ≤ 240, got 0"),
            ("output.duration", 4, 70, "duration must be > 0 seconds, got -1"),
            ("output.crf", 4, 81, "60 is out of range 0…51"),
            (
                "layers[0].color", 6, 33,
                ##"invalid color '#12345'; expected "#rgb", "#rgba", "#rrggbb", "#rrggbbaa", a CSS colour name such as "coral" or "transparent", or [r, g, b] / [r, g, b, a] in 0…1"##
            ),
            (
                "layers[1].type", 7, 15,
                "unknown layer type 'meshGradiant'; did you mean 'meshGradient'? (known types: solid, meshGradient)"
            ),
            ("layers[2].smoothColors", 8, 56, "unknown key 'smoothColors'; did you mean 'smoothsColors'?"),
            (
                "layers[2].points[3].keyframes[1].t", 10, 61,
                "keyframe time 1 is not after the previous keyframe's time 1; times must be strictly increasing"
            ),
            ("layers[2].opacity", 12, 18, "2 is out of range 0…1"),
            ("layers[4].points", 14, 66, "expected 4 points (width × height), got 1"),
        ]
        XCTAssertEqual(found.count, expected.count, found.map(\.description).joined(separator: "\n"))
        for (diagnostic, (path, line, column, message)) in zip(found, expected) {
            XCTAssertEqual(diagnostic.path.description, path)
            XCTAssertEqual(diagnostic.location, SourceLocation(line: line, column: column), "\(diagnostic)")
            XCTAssertEqual(diagnostic.message, message)
            XCTAssertEqual(diagnostic.file, "jobs/x.json")
        }
        XCTAssertEqual(
            found.first?.description, "jobs/x.json:3:3: outptu: unknown key 'outptu'; did you mean 'output'?")
    }

    func testBadFrameRateStringAndVersion() {
        let found = diagnostics(
            """
            {"kiln": 2, "output": {"width": 64, "height": 64, "fps": "30000/0", "duration": 1}, "layers": {}}
            """)
        XCTAssertEqual(found.map(\.path.description), ["kiln", "output.fps", "layers"])
        XCTAssertEqual(
            found.map(\.message),
            [
                "unsupported job format version 2; this Kiln reads version 1",
                #"invalid frame rate '30000/0'; expected a number or "numerator/denominator" with a non-zero denominator, e.g. "30000/1001""#,
                "expected an array of layers, got an object",
            ])
    }

    func testMissingTopLevelKeys() {
        let found = diagnostics(#"{"comment": ["anything", 1]}"#)
        XCTAssertEqual(
            found.map(\.message),
            [
                "missing required key 'kiln' (the job format version, 1)",
                "missing required key 'output'",
                "missing required key 'layers'",
            ])
        XCTAssertEqual(
            found.first?.description,
            "jobs/x.json:1:1: missing required key 'kiln' (the job format version, 1)")
        let output = diagnostics(##"{"kiln": 1, "output": {}, "layers": [{"color": "#000000"}, 3]}"##)
        XCTAssertEqual(
            output.map { "\($0.path): \($0.message)" },
            [
                "output: missing required key 'width'",
                "output: missing required key 'height'",
                "output: missing required key 'fps'",
                "output: missing required key 'duration'",
                "layers[0]: missing required key 'type' (one of: solid, meshGradient)",
                "layers[1]: expected a layer object, got a number",
            ])
    }

    func testDuplicateKeysAreErrors() {
        let found = diagnostics(
            #"{"kiln": 1, "kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1}, "layers": []}"#
        )
        XCTAssertEqual(found.map(\.message), ["duplicate key 'kiln'"])
        XCTAssertEqual(found.first?.location, SourceLocation(line: 1, column: 13))
    }

    func testSyntaxErrorExitsWith65AndLocation() {
        do {
            _ = try decode("{\n  \"kiln\": 1,\n  \"output\" {}\n}")
            XCTFail("expected a syntax error")
        } catch {
            XCTAssertEqual(error.exitCode, 65)
            guard case .invalid(let found) = error else { return XCTFail("expected .invalid") }
            XCTAssertEqual(found.count, 1)
            XCTAssertEqual(found.first?.path, .root)
            XCTAssertEqual(found.first?.location, SourceLocation(line: 3, column: 12))
            XCTAssertEqual(error.description, "jobs/x.json:3:12: expected ':' after object key, got '{'")
        }
    }

    func testMissingFileExitsWith66() {
        do {
            _ = try JobLoader.load(file: "/nonexistent/kiln/job.json", kinds: testKinds)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.exitCode, 66)
            guard case .fileMissing(let file, _) = error else { return XCTFail("expected .fileMissing") }
            XCTAssertEqual(file, "/nonexistent/kiln/job.json")
        }
    }

    func testLoadsFromDiskRelativeToTheJobFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kiln-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("intro.json")
        try Data(Self.example.replacingOccurrences(of: #""path": "mesh.mp4", "#, with: "").utf8).write(
            to: file)
        let job = try JobLoader.load(file: file.path, kinds: testKinds)
        XCTAssertEqual(job.output.path, directory.appendingPathComponent("intro.mp4").standardizedFileURL)
        XCTAssertEqual(job.layers.count, 2)

        do {
            _ = try JobLoader.load(file: directory.path, kinds: testKinds)
            XCTFail("a directory is not a job file")
        } catch {
            XCTAssertEqual(error.exitCode, 66)
        }
    }

    func testOversizedInputIsRejectedBeforeParsing() {
        let bytes = [UInt8](repeating: UInt8(ascii: " "), count: JobLoader.maximumFileSize + 1)
        do {
            _ = try JobLoader.decode(
                bytes: bytes, file: "big.json", baseDirectory: URL(fileURLWithPath: "/"), kinds: [])
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.exitCode, 65)
            XCTAssertTrue(
                error.description.contains("over the limit json-bytes = 16777216"), error.description)
        }
    }
}
