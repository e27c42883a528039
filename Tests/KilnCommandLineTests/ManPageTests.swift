import Foundation
import KilnCommandLine
import XCTest

final class ManPageTests: XCTestCase {
    func testEveryCommandAndOptionIsInThePage() {
        let page = ManPage.roff(SampleProgram.program)
        XCTAssertTrue(page.contains(".TH OVEN 1"), page)
        XCTAssertTrue(page.contains("oven \\- bakes things"), page)
        for (words, spec) in SampleProgram.program.commandPaths {
            XCTAssertTrue(page.contains(".SS \"\(words)\""), words)
            for option in spec.options {
                XCTAssertTrue(
                    page.contains(
                        "\\fB" + (option.short.map { "\\-\($0), " } ?? "")
                            + option.long.replacing("-", with: "\\-")), option.long)
            }
        }
    }

    func testTextIsEscapedForTroff() {
        let spec = CommandSpec(
            "odd", summary: "odd text",
            description: ".starts with a dot\nback\\slash, a dash-ed word and ≥ 3 … dots")
        let page = ManPage.roff(CommandLineProgram(name: "x", summary: "x", commands: [spec], overview: ""))
        XCTAssertTrue(page.contains("\n\\&.starts with a dot\n"), page)
        XCTAssertTrue(page.contains("back\\eslash, a dash\\-ed word and \\[u2265] 3 \\[u2026] dots"), page)
    }

    func testGroffReadsThePageWithoutWarnings() throws {
        let page = try ShellRunner.temporaryFile(ManPage.roff(SampleProgram.program), name: "oven.1")
        defer { unlink(page) }
        let result = try ShellRunner.run("groff", ["-man", "-Tutf8", "-ww", "-z", page])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.output, "", "groff warnings")
    }
}
