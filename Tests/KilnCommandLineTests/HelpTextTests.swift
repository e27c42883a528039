import KilnCommandLine
import XCTest

final class HelpTextTests: XCTestCase {
    func testCommandHelpHasTheSynopsisEveryOptionAndItsDefault() {
        let help = HelpText.command(SampleProgram.bake, path: "bake", program: "oven")
        XCTAssertTrue(help.hasPrefix("usage: oven bake JOB [--threads N] [--at SECONDS]"), help)
        XCTAssertTrue(help.contains("[--tag TEXT]..."), help)
        XCTAssertTrue(help.contains("\nBakes JOB.\n"), help)
        for option in SampleProgram.bake.options {
            XCTAssertTrue(help.contains(option.signature), "\(option.long) missing: \(help)")
            XCTAssertTrue(help.contains(option.help), "\(option.long) help missing: \(help)")
        }
        XCTAssertTrue(help.contains("-t, --threads N"), help)
        XCTAssertTrue(help.contains("how to go (default fast)"), help)
    }

    func testLongHelpWrapsUnderItsColumnAndSynopsisItemsStayWhole() {
        let wordy = CommandSpec(
            "wordy", summary: "w",
            options: (1...8).map {
                OptionSpec(
                    "--option-\($0)", kind: .string, placeholder: "NAME=VALUE", repeatable: true,
                    help: String(repeating: "word ", count: 40))
            })
        let help = HelpText.command(wordy, path: "wordy", program: "oven")
        for line in help.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 100, String(line)) }
        XCTAssertFalse(help.contains("[--option-1\n"), help)
        XCTAssertTrue(help.contains("\n       "), "the synopsis continues indented: \(help)")
    }

    func testProgramHelpListsVisibleCommandsAndSubcommandHelpListsEachAction() {
        let top = HelpText.program(SampleProgram.program)
        for command in ["bake", "list", "check", "plan"] { XCTAssertTrue(top.contains("  \(command) "), top) }
        XCTAssertTrue(top.contains("Exit codes: 0 ok, 64 usage."), top)
        let plan = HelpText.command(SampleProgram.plan, path: "plan", program: "oven")
        XCTAssertTrue(
            plan.hasPrefix("usage: oven plan add NAME [--mode fast|slow]\n       oven plan remove NAME"), plan
        )
        XCTAssertTrue(plan.contains("oven plan remove: remove a plan"), plan)
    }
}
