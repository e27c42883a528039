import Foundation
import KilnCommandLine
import XCTest

final class CompletionScriptTests: XCTestCase {
    func testEveryScriptNamesEveryCommandOptionAndChoice() {
        for shell in CompletionShell.allCases {
            let script = shell.script(for: SampleProgram.program)
            for (_, spec) in SampleProgram.program.commandPaths {
                XCTAssertTrue(script.contains(spec.name), "\(shell): \(spec.name)")
                for option in spec.options {
                    XCTAssertTrue(
                        script.contains(shell == .fish ? "-l \(option.long.dropFirst(2))" : option.long),
                        "\(shell): \(spec.name) \(option.long)")
                }
            }
            for choice in ["fast", "slow"] { XCTAssertTrue(script.contains(choice), "\(shell): \(choice)") }
        }
    }

    /// What bash completes for the words so far (the last one being completed).
    func bashCompletions(_ words: [String]) throws -> [String] {
        let script = try ShellRunner.temporaryFile(
            CompletionShell.bash.script(for: SampleProgram.program), name: "oven.bash")
        defer { unlink(script) }
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let result = try ShellRunner.run(
            "bash",
            [
                "-c",
                "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _oven; printf '%s\\n' \"${COMPREPLY[@]}\"",
            ])
        XCTAssertEqual(result.status, 0, result.output)
        return result.output.split(separator: "\n").map(String.init)
    }

    func testBashCompletesCommandsOptionsChoicesAndSubcommands() throws {
        XCTAssertEqual(try bashCompletions(["oven", "ba"]), ["bake"])
        XCTAssertEqual(try bashCompletions(["oven", "bake", "--thr"]), ["--threads"])
        XCTAssertEqual(try bashCompletions(["oven", "bake", "--mode", ""]), ["fast", "slow"])
        XCTAssertEqual(try bashCompletions(["oven", "plan", "re"]), ["remove"])
        XCTAssertEqual(try bashCompletions(["oven", "plan", "add", "--m"]), ["--mode"])
        XCTAssertEqual(
            try bashCompletions(["oven", "bake", "--threads", ""]), [], "a number is not completed")
    }

    func testFishCompletesCommandsOptionsAndChoices() throws {
        let script = try ShellRunner.temporaryFile(
            CompletionShell.fish.script(for: SampleProgram.program), name: "oven.fish")
        defer { unlink(script) }
        let syntax = try ShellRunner.run("fish", ["-n", script])
        XCTAssertEqual(syntax.status, 0, syntax.output)
        let result = try ShellRunner.run(
            "fish",
            [
                "-c",
                "source '\(script)'; complete -C'oven ba'; complete -C'oven bake --thr'; complete -C'oven bake --mode '; complete -C'oven plan '",
            ])
        let firstWords = result.output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        XCTAssertEqual(firstWords, ["bake", "--threads", "fast", "slow", "add", "remove"], result.output)
    }

    /// `oven plan list --` offers `plan list`'s options only, not those of the command `list`.
    func testFishOffersAnActionOnlyItsOwnOptionsWhenACommandSharesItsName() throws {
        let plan = CommandSpec(
            "plan", summary: "plans",
            subcommands: [CommandSpec("list", summary: "list plans", options: [SampleProgram.mode])])
        let program = CommandLineProgram(
            name: "oven", summary: "bakes things", commands: [SampleProgram.list, plan], overview: "")
        let script = try ShellRunner.temporaryFile(
            CompletionShell.fish.script(for: program), name: "oven.fish")
        defer { unlink(script) }
        for (line, expected) in [("oven plan list --", ["--mode"]), ("oven list --", ["--json"])] {
            let result = try ShellRunner.run("fish", ["-c", "source '\(script)'; complete -C'\(line)'"])
            let firstWords = result.output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
            XCTAssertEqual(firstWords, expected, "\(line): \(result.output)")
        }
    }

    func testZshScriptIsValidZsh() throws {
        let script = try ShellRunner.temporaryFile(
            CompletionShell.zsh.script(for: SampleProgram.program), name: "_oven")
        defer { unlink(script) }
        let result = try ShellRunner.run("zsh", ["-n", script])
        XCTAssertEqual(result.status, 0, result.output)
        let text = CompletionShell.zsh.script(for: SampleProgram.program)
        XCTAssertTrue(text.hasPrefix("#compdef oven\n"), text)
        XCTAssertTrue(text.contains("'(-t --threads)'{-t,--threads}'[worker threads]:N: '"), text)
        XCTAssertTrue(text.contains("'--mode[how to go]:fast|slow:(fast slow)'"), text)
    }
}
