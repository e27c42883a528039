import Foundation
import XCTest

/// The job schema (docs/kiln-job.schema.json) is what `kiln schema` generates, and a standard
/// validator (Python's jsonschema, Draft 2020-12; scripts/check-job-schema.py) agrees with
/// `kiln validate`: it accepts every shipped job and rejects every invalid fixture of the tests,
/// except those listed below with the reason a JSON Schema cannot see their fault.
final class JobSchemaTests: TemporaryDirectoryTestCase {
    static let schemaFile = "docs/kiln-job.schema.json"

    func testTheCommittedSchemaIsTheGeneratedOne() throws {
        let printed = try KilnProcess.run(["schema"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let committed = try String(
            contentsOf: KilnProcess.repositoryRoot.appendingPathComponent(Self.schemaFile), encoding: .utf8)
        XCTAssertEqual(printed.stdout, committed, "stale: run 'kiln schema --write' (or 'kiln docs --write')")
        XCTAssertEqual(try KilnProcess.run(["schema", "--check"]).status, 0)

        let stale = try write(
            "schema.json", committed.replacingOccurrences(of: "\"maximum\": 8192", with: ""))
        let checked = try KilnProcess.run(["schema", "--check", stale])
        XCTAssertEqual(checked.status, 1)
        XCTAssertTrue(checked.stderr.contains("\(stale) is stale"), checked.stderr)
        XCTAssertEqual(try KilnProcess.run(["schema", "--write", stale]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: stale, encoding: .utf8), committed)
    }

    func testBadInvocationsExitWithUsage() throws {
        XCTAssertEqual(try KilnProcess.run(["schema", "--write", "--check"]).status, 64)
        XCTAssertEqual(try KilnProcess.run(["schema", "out.json"]).status, 64, "FILE without --write")
        let help = try KilnProcess.run(["schema", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("JSON Schema"), help.stdout)
    }

    func testEveryShippedJobFollowsTheSchema() throws {
        let jobs = try ["jobs", "jobs/photos"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(
                atPath: KilnProcess.repositoryRoot.appendingPathComponent(folder).path
            ).filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
        }
        XCTAssertGreaterThan(jobs.count, 20)
        for verdict in try schemaVerdicts(jobs) {
            XCTAssertTrue(verdict.valid, "\(verdict.file): \(verdict.errors)")
        }
    }

    /// Each invalid fixture is refused by `kiln validate`, and by the schema unless its fault is
    /// one a schema cannot express (then the schema must accept it, so this list stays exact).
    func testEveryInvalidFixtureIsRejectedByTheSchemaAndByKiln() throws {
        let fixtures = try invalidFixtures()
        XCTAssertGreaterThan(fixtures.count, 60)
        let verdicts = try schemaVerdicts(fixtures.map(\.path))
        var unexplained = Set(Self.beyondTheSchema.keys)
        for (fixture, verdict) in zip(fixtures, verdicts) {
            let validated = try KilnProcess.run(["validate", fixture.path], cwd: fixture.folder)
            XCTAssertTrue([65, 66].contains(validated.status), "kiln validate accepted \(fixture.name)")
            if Self.beyondTheSchema[fixture.name] != nil {
                unexplained.remove(fixture.name)
                XCTAssertTrue(
                    verdict.valid,
                    "\(fixture.name) is rejected by the schema now: drop it from beyondTheSchema")
            } else {
                XCTAssertFalse(verdict.valid, "the schema accepts \(fixture.name): \(validated.stderr)")
            }
        }
        XCTAssertEqual(unexplained, [], "listed in beyondTheSchema but not a fixture")
    }

    /// Fixtures whose fault lies where a JSON Schema cannot look, by name.
    static let beyondTheSchema: [String: String] = [
        "Invalid/loader-keyframe-times-not-increasing": "times must increase from one element to the next",
        "Invalid/loader-mesh-point-count": "the number of points depends on width and height",
        "Invalid/output-too-many-frames-at-its-rate": "the frame count is duration × fps, two keys",
        "Invalid/symbol-effect-interval-after-an-open-one": "only the last interval may be open: an order",
        "Invalid/symbol-effect-interval-ends-before-it-starts": "an end must follow its start, two values",
        "Invalid/symbol-effect-triggers-not-increasing": "trigger times must increase",
        "Invalid/transition-disappear-before-appear": "disappear must follow appear, two keys",
        "Invalid/transition-mapping-inputs-not-increasing": "a mapping's inputs must increase",
        "Invalid/transition-scroll-transition-outside-scroll": "depends on the layers around it",
        "Invalid/validate-missing-image-only": "a file that does not exist",
        "Invalid/validate-path-from-the-working-directory": "a file that does not exist beside the job",
        "Invalid/variables-unknown-output-name": "{name} must be declared elsewhere in the job",
        "Invalid/variables-unknown-reference": "${name} must be declared elsewhere in the job",
        "Soak/corrupted-image": "a file that does not exist",
        "Soak/fifo-audio": "a file that does not exist",
        "Soak/missing-image": "a file that does not exist",
        "Soak/newline-bomb": "the text-characters limit, which --limit raises",
        "Soak/vanished-image": "a file that does not exist",
        "Hostile/audio-fifo": "a file that does not exist",
        "Hostile/huge-frame": "the frame-pixels limit, which --limit raises",
        "Hostile/huge-image": "the picture's size, read from the file",
        "Hostile/long-transcript": "a file that does not exist",
        "Hostile/output-is-device": "what the output path is on disk",
        "Hostile/output-is-directory": "what the output path is on disk",
        "Hostile/output-is-input": "the output path names one of the job's inputs",
        "Hostile/output-is-job": "the output path names the job file",
        "Hostile/padded-audio": "a file that does not exist",
        "Hostile/memory-image-layers": "the memory budget, estimated from the pictures' headers",
        "Hostile/memory-slips-past": "the memory budget, estimated from the text layouts",
        "Hostile/memory-svg-strokes": "the memory budget, estimated from the symbol file's paths",
        "Hostile/memory-text-layers": "the memory budget, estimated from the text layouts",
        "Soak/memory-text-bomb": "the memory budget, estimated from the text layouts",
        "Soak/deep-groups": "layers nested past the nesting limit, a count across levels that --limit raises",
        "Hostile/memory-transcript-layer": "the memory budget, estimated from the transcript's layouts",
        "Hostile/text-combining": "the text-characters limit, which --limit raises",
        "Hostile/text-newlines": "the text-characters limit, which --limit raises",
        "Hostile/transcript-config-file": "the transcript file's content",
        "Hostile/transcript-outside-roots": "a file that does not exist",
        "Hostile/transcript-secret-lines": "the transcript file's content",
        "SceneHostile/mesh-point": "the numbers inside a \"cubicBezier(…)\" string",
        "SceneHostile/nested-scale-overflow": "the nesting limit, which --limit raises",
    ]

    /// Fixtures `kiln validate` accepts: they are refused later (by the queue, a worker's roots,
    /// the render) or are good jobs kept beside the hostile ones.
    static let validForValidate: Set<String> = [
        "Soak/blur-bomb", "Soak/output-is-queue", "Hostile/blurred-shapes", "Hostile/long-variable-output",
        "Hostile/output-is-queue-wal", "Hostile/output-is-queue", "Hostile/output-outside-roots",
        "Hostile/slow-to-load", "Hostile/transcript-from-variable", "Hostile/trap-during-render",
        "SceneHostile/spring-denormal-response",
    ]

    struct Fixture {
        /// `Folder/stem`, as the lists above name it.
        let name: String
        let path: String
        /// Where `kiln validate` runs, so paths in the job resolve as the fixture's tests see them.
        let folder: URL
    }

    /// Every `.json` fixture of the CLI and scene tests but those `kiln validate` accepts (which
    /// it must still accept). The soak jobs get the unique name their harness gives them.
    private func invalidFixtures() throws -> [Fixture] {
        let tests = KilnProcess.repositoryRoot.appendingPathComponent("Tests")
        let folders: [(name: String, url: URL)] = [
            ("Invalid", tests.appendingPathComponent("KilnCLITests/Fixtures/Invalid")),
            ("Soak", tests.appendingPathComponent("KilnCLITests/Fixtures/Soak")),
            ("Hostile", tests.appendingPathComponent("KilnCLITests/Fixtures/Hostile")),
            ("SceneHostile", tests.appendingPathComponent("KilnSceneTests/Fixtures/Hostile")),
        ]
        var fixtures: [Fixture] = []
        for folder in folders {
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
            where file.hasSuffix(".json") {
                let name = folder.name + "/" + file.dropLast(".json".count)
                var path = folder.url.appendingPathComponent(file).path
                if folder.name == "Soak" {
                    let text = try String(contentsOfFile: path, encoding: .utf8)
                    path = try write(file, text.replacingOccurrences(of: "{{ID}}", with: "schema-test"))
                }
                if Self.validForValidate.contains(name) {
                    let validated = try KilnProcess.run(["validate", path], cwd: folder.url)
                    XCTAssertEqual(
                        validated.status, 0, "\(name) is refused now: move it out of validForValidate")
                    continue
                }
                fixtures.append(Fixture(name: name, path: path, folder: folder.url))
            }
        }
        return fixtures
    }

    struct Verdict: Decodable {
        let file: String
        let valid: Bool
        let errors: [[String: String]]
    }

    /// scripts/check-job-schema.py's verdict on each file, in order.
    private func schemaVerdicts(_ files: [String]) throws -> [Verdict] {
        let python = try validatorPython()
        let result = try XCTUnwrap(
            try KilnProcess.tool(
                python, ["scripts/check-job-schema.py", "--json", "--schema", Self.schemaFile] + files))
        XCTAssertTrue([0, 1].contains(result.status), result.stderr)
        let verdicts = try result.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(Verdict.self, from: Data($0.utf8))
        }
        XCTAssertEqual(verdicts.map(\.file), files)
        return verdicts
    }

    /// Debian's python3 (where python3-jsonschema installs), else the first python3 on PATH that
    /// has a Draft 2020-12 validator.
    private func validatorPython() throws -> String {
        let candidates =
            ["/usr/bin/python3"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map {
                "\($0)/python3"
            }
        for python in candidates {
            let probe = try KilnProcess.tool(python, ["-c", "from jsonschema import Draft202012Validator"])
            if probe?.status == 0 { return python }
        }
        throw XCTSkip(
            "no python3 with jsonschema (Draft 2020-12): scripts/install-deps.sh --test installs python3-jsonschema"
        )
    }
}
