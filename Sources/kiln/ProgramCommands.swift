import KilnCommandLine
import KilnExport
import KilnMedia
import KilnWorker

/// `kiln help [COMMAND]` and `kiln help --man`.
enum HelpCommand: KilnSubcommand {
    static let man = OptionSpec.flag("--man", help: "print the man page (roff) instead")
    static let spec = CommandSpec(
        "help", summary: "help for one command (or: kiln COMMAND --help), or the man page",
        options: [man],
        positionals: [PositionalSpec("COMMAND", count: .optional, help: "the command to describe")])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        if args.flag(man) {
            print(ManPage.roff(CommandCatalog.program), terminator: "")
        } else if let name = args.positionals.first {
            let command = try CommandCatalog.program.resolve(name)
            print(HelpText.command(command, path: name, program: "kiln"), terminator: "")
        } else {
            print(HelpText.program(CommandCatalog.program), terminator: "")
        }
        return ExitCode.ok
    }
}

/// `kiln version` (also `kiln --version`).
enum VersionCommand: KilnSubcommand {
    static let spec = CommandSpec("version", summary: "print the version and the FFmpeg libraries in use")

    static func run(_ args: ParsedArguments) throws -> Int32 {
        print("kiln \(KilnVersion.string) (\(MediaLibraries.versionSummary))")
        return ExitCode.ok
    }
}

/// `kiln completion bash|zsh|fish`.
enum CompletionCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "completion", summary: "print a shell completion script",
        description: """
            Prints a completion script for commands, options, choices and file names. For example:
              bash: source <(kiln completion bash)
              zsh:  kiln completion zsh > "${fpath[1]}/_kiln"
              fish: kiln completion fish > ~/.config/fish/completions/kiln.fish
            """,
        positionals: [
            PositionalSpec(
                "SHELL", kind: .choice(CompletionShell.allCases.map(\.rawValue)), help: "bash, zsh or fish")
        ])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        guard let shell = args.positionals.first.flatMap(CompletionShell.init(rawValue:)) else {
            throw args.usageError("completion needs bash, zsh or fish")
        }
        print(shell.script(for: CommandCatalog.program), terminator: "")
        return ExitCode.ok
    }
}

/// A worker's render process (QueueWorker, AttemptProcess): not for direct use.
enum RenderAttemptCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "__render-attempt", summary: "a worker's render process (run by kiln worker only)", hidden: true)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        installInterruptHandlers()
        return RenderAttemptProcess.serve(flag: interruption)
    }
}

/// Checks every description: documented, no clashing names, every option round-tripping. Run
/// by the tests, so a command added without help or with a broken option fails them.
enum CheckDescriptionsCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "__check-descriptions", summary: "check that every command's options are documented and parse",
        hidden: true)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let problems = DescriptionCheck.problems(CommandCatalog.program)
        for problem in problems { Output.line(problem) }
        Output.stderr(
            "kiln: \(CommandCatalog.program.commandPaths.count) commands checked, \(problems.count) problems")
        return problems.isEmpty ? ExitCode.ok : ExitCode.software
    }
}
