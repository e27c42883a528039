import KilnCommandLine

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
