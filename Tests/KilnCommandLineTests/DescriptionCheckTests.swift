import KilnCommandLine
import XCTest

final class DescriptionCheckTests: XCTestCase {
    func testAWellDescribedProgramHasNoProblems() {
        XCTAssertEqual(DescriptionCheck.problems(SampleProgram.program), [])
    }

    func testMissingHelpClashingNamesAndBadDefaultsAreFound() {
        let broken = CommandSpec(
            "broken", summary: "",
            options: [
                OptionSpec("--level", short: "l", kind: .int(1...3), default: .int(7), help: "a level"),
                OptionSpec("--look", short: "l", kind: .choice(["a", "b"]), default: .string("c"), help: ""),
                OptionSpec("--level", kind: .string, help: "again"),
            ],
            positionals: [PositionalSpec("FILE", help: "")])
        let program = CommandLineProgram(name: "x", summary: "x", commands: [broken], overview: "")
        let problems = Set(DescriptionCheck.problems(program))
        for expected in [
            "broken: no summary", "broken FILE: no help", "broken: two options share a long name",
            "broken: two options share a short name", "broken --look: no help",
            "broken --level: default 7 does not parse back to itself",
            "broken --look: default c does not parse back to itself",
        ] {
            XCTAssertTrue(problems.contains(expected), "\(expected) not in \(problems.sorted())")
        }
    }

    func testAnOptionThatDoesNotRoundTripIsFound() {
        // `-l` is taken by --level first, so --list's short spelling parses as --level.
        let shadowed = CommandSpec(
            "shadowed", summary: "s",
            options: [
                OptionSpec("--level", short: "l", kind: .int(1...3), help: "a level"),
                OptionSpec("--list", short: "l", kind: .string, help: "a list"),
            ])
        let program = CommandLineProgram(name: "x", summary: "x", commands: [shadowed], overview: "")
        let problems = DescriptionCheck.problems(program)
        XCTAssertTrue(
            problems.contains { $0.hasPrefix("shadowed --list: -l sample text refused") }, "\(problems)")
    }
}
