import KilnCommandLine
import XCTest

final class CommandLineParserTests: XCTestCase {
    func testEveryKindParsesIntoItsTypedValue() throws {
        let args = try SampleProgram.parse(
            SampleProgram.bake,
            [
                "job.json", "-t", "4", "--at=1.5", "--mode", "slow", "-o", "out.mp4", "--tag", "a", "--tag=b",
                "--json",
            ])
        XCTAssertEqual(args.positionals, ["job.json"])
        XCTAssertEqual(args.int(SampleProgram.threads), 4)
        XCTAssertEqual(args.double(SampleProgram.seconds), 1.5)
        XCTAssertEqual(args.string(SampleProgram.mode), "slow")
        XCTAssertEqual(args.string(SampleProgram.output), "out.mp4")
        XCTAssertEqual(args.strings(SampleProgram.tag), ["a", "b"])
        XCTAssertTrue(args.flag(SampleProgram.json))
        XCTAssertFalse(args.helpRequested)
    }

    func testAbsentOptionsTakeTheirDefaults() throws {
        let args = try SampleProgram.parse(SampleProgram.bake, ["job.json"])
        XCTAssertEqual(args.string(SampleProgram.mode), "fast")
        XCTAssertFalse(args.isGiven(SampleProgram.mode))
        XCTAssertNil(args.int(SampleProgram.threads))
        XCTAssertEqual(args.strings(SampleProgram.tag), [])
        XCTAssertFalse(args.flag(SampleProgram.json))
    }

    func testDoubleDashEndsOptionsAndTheLastValueOfAnOptionCounts() throws {
        let args = try SampleProgram.parse(
            SampleProgram.bake, ["-t", "2", "--threads", "3", "--", "-job.json"])
        XCTAssertEqual(args.int(SampleProgram.threads), 3)
        XCTAssertEqual(args.positionals, ["-job.json"])
    }

    func testMalformedValuesAreUsageErrorsNamingTheCommandAndOption() {
        let cases: [([String], String)] = [
            (["j", "--threads", "abc"], "--threads expects an integer in 1…8, got 'abc'"),
            (["j", "--threads", "9"], "--threads expects an integer in 1…8, got '9'"),
            (["j", "--at", "-1"], "--at expects a number ≥ 0, got '-1'"),
            (["j", "--at", "nan"], "--at expects a number ≥ 0, got 'nan'"),
            (["j", "--mode", "slwo"], "--mode expects fast, slow, got 'slwo'; did you mean 'slow'?"),
            (["j", "--json=yes"], "--json takes no value"),
            (["j", "--output"], "--output needs a value (PATH)"),
        ]
        for (args, message) in cases {
            let error = SampleProgram.usageError(SampleProgram.bake, args)
            XCTAssertEqual(error?.message, message, "\(args)")
            XCTAssertEqual(error?.command, "bake", "\(args)")
        }
    }

    func testUnknownOptionsSuggestTheNearestOne() {
        let error = SampleProgram.usageError(SampleProgram.bake, ["j", "--thraeds", "2"])
        XCTAssertEqual(error?.message, "unknown option '--thraeds' for bake; did you mean '--threads'?")
        XCTAssertEqual(error?.helpHint(program: "oven"), "run 'oven bake --help' for usage")
        XCTAssertEqual(
            SampleProgram.usageError(SampleProgram.bake, ["j", "--zzzzzz"])?.message,
            "unknown option '--zzzzzz' for bake")
        XCTAssertEqual(
            SampleProgram.usageError(SampleProgram.bake, ["j", "-x"])?.message, "unknown option '-x' for bake"
        )
    }

    func testPositionalCountsAndKinds() throws {
        XCTAssertEqual(SampleProgram.usageError(SampleProgram.bake, [])?.message, "bake needs JOB")
        XCTAssertEqual(
            SampleProgram.usageError(SampleProgram.bake, ["a", "b"])?.message,
            "bake takes JOB, got an extra 'b'")
        XCTAssertEqual(try SampleProgram.parse(SampleProgram.list, []).positionals, [])
        XCTAssertEqual(try SampleProgram.parse(SampleProgram.list, ["7"]).positionalValues, [.int(7)])
        XCTAssertEqual(
            SampleProgram.usageError(SampleProgram.list, ["seven"])?.message,
            "ID expects an integer in 0…99, got 'seven'")
        XCTAssertEqual(
            try SampleProgram.parse(SampleProgram.check, ["a", "b", "c"]).positionals, ["a", "b", "c"])
        XCTAssertEqual(SampleProgram.usageError(SampleProgram.check, [])?.message, "check needs JOB...")
    }

    func testHelpSkipsTheArgumentChecks() throws {
        XCTAssertTrue(try SampleProgram.parse(SampleProgram.bake, ["--help"]).helpRequested)
        XCTAssertTrue(try SampleProgram.parse(SampleProgram.plan, ["-h"]).helpRequested)
    }

    func testSubcommandsParseTheirOwnOptions() throws {
        let args = try SampleProgram.parse(SampleProgram.plan, ["add", "nightly", "--mode", "slow"])
        XCTAssertEqual(args.command, "plan add")
        XCTAssertEqual(args.spec.name, "add")
        XCTAssertEqual(args.string(SampleProgram.mode), "slow")
        XCTAssertEqual(
            SampleProgram.usageError(SampleProgram.plan, ["remvoe", "x"])?.message,
            "unknown plan action 'remvoe'; did you mean 'remove'?")
        XCTAssertEqual(
            SampleProgram.usageError(SampleProgram.plan, [])?.message, "plan needs one of: add, remove")
        XCTAssertEqual(
            SampleProgram.usageError(SampleProgram.plan, ["remove", "x", "--mode", "fast"])?.command,
            "plan remove")
    }

    func testUnknownCommandsSuggestTheNearestOne() {
        XCTAssertThrowsError(try SampleProgram.program.resolve("bkae")) { error in
            XCTAssertEqual((error as? UsageError)?.message, "unknown command 'bkae'; did you mean 'bake'?")
        }
        XCTAssertEqual(try SampleProgram.program.resolve("list").name, "list")
    }

    /// `oven --hlep` is a mistyped option, not a command; `oven remove x` forgot its command.
    func testProgramOptionsAndActionsWithoutTheirCommandAreSuggested() {
        let cases = [
            ("--hlep", "unknown option '--hlep'; did you mean '--help'?"),
            ("-q", "unknown option '-q'"),
            ("remove", "unknown command 'remove'; did you mean 'plan remove'?"),
            ("ba", "unknown command 'ba'; did you mean 'bake'?"),
        ]
        for (word, message) in cases {
            XCTAssertThrowsError(try SampleProgram.program.resolve(word), word) { error in
                XCTAssertEqual((error as? UsageError)?.message, message)
                XCTAssertNil((error as? UsageError)?.command)
            }
        }
    }
}
