import Foundation
import XCTest

/// `kiln docs` as the maintainer runs it: check, rewrite in place, and the errors it names.
final class DocsCommandTests: TemporaryDirectoryTestCase {
    private func repositoryDocument() throws -> String {
        try String(
            contentsOf: KilnProcess.repositoryRoot.appendingPathComponent("docs/job-format.md"),
            encoding: .utf8)
    }

    func testCheckPassesOnTheRepositoryAndFailsOnAStaleCopy() throws {
        let fresh = try KilnProcess.run(["docs", "--check"])
        XCTAssertEqual(fresh.status, 0, fresh.stderr)

        let stale = try repositoryDocument().replacingOccurrences(
            of: "| `width` | integer 16…8192 | required |", with: "| `width` | integer | required |")
        let path = try write("job-format.md", stale)
        let checked = try KilnProcess.run(["docs", "--check", path])
        XCTAssertEqual(checked.status, 1)
        XCTAssertTrue(checked.stderr.contains("\(path) is stale"), checked.stderr)

        let written = try KilnProcess.run(["docs", "--write", path])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), try repositoryDocument())
        XCTAssertEqual(try KilnProcess.run(["docs", "--check", path]).status, 0)
    }

    /// Without FILE, --check and --write also cover the job schema, generated from the same tables.
    func testTheDefaultFilesIncludeTheJobSchema() throws {
        let docs = directory.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
        try Data(try repositoryDocument().utf8).write(to: docs.appendingPathComponent("job-format.md"))
        let schema = docs.appendingPathComponent("kiln-job.schema.json")
        try Data("{}\n".utf8).write(to: schema)
        let checked = try KilnProcess.run(["docs", "--check"], cwd: directory)
        XCTAssertEqual(checked.status, 1)
        XCTAssertTrue(checked.stderr.contains("docs/kiln-job.schema.json is stale"), checked.stderr)
        XCTAssertEqual(try KilnProcess.run(["docs", "--write"], cwd: directory).status, 0)
        XCTAssertEqual(
            try String(contentsOf: schema, encoding: .utf8), try KilnProcess.run(["schema"]).stdout)
        XCTAssertEqual(try KilnProcess.run(["docs", "--check"], cwd: directory).status, 0)
    }

    func testPrintingChangesNothing() throws {
        let path = try write(
            "job-format.md", "intro\n<!-- BEGIN GENERATED: output -->\nold\n<!-- END GENERATED -->\n")
        let printed = try KilnProcess.run(["docs", path])
        XCTAssertEqual(printed.status, 65, "the other regions have no place: \(printed.stderr)")
        XCTAssertTrue(
            printed.stderr.contains(
                "no place for generated region(s) audio, audio.mix, audio.duck, audio.driven, transform"),
            printed.stderr)
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).contains("\nold\n"))
    }

    func testBadInvocationsExitWithTheirCodes() throws {
        XCTAssertEqual(try KilnProcess.run(["docs", "--check", "--write"]).status, 64)
        XCTAssertEqual(try KilnProcess.run(["docs", "--chek"]).status, 64)
        let missing = try KilnProcess.run([
            "docs", "--check", directory.appendingPathComponent("none.md").path,
        ])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.stderr.contains("cannot read"), missing.stderr)
    }
}
