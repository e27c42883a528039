import KilnCommandLine

/// `kiln help [COMMAND [ACTION]]` and `kiln help --man`.
enum HelpCommand: KilnSubcommand {
    static let man = OptionSpec.flag("--man", help: "print the man page (roff) instead")
    static let spec = CommandSpec(
        "help", summary: "help for one command (or: kiln COMMAND --help), or the man page",
        options: [man],
        positionals: [
            PositionalSpec("COMMAND", count: .optional, help: "the command to describe"),
            PositionalSpec(
                "ACTION", count: .optional, help: "one action of a command that has them (help schedule add)"),
        ])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        if args.flag(man) {
            print(ManPage.roff(CommandCatalog.program), terminator: "")
            return ExitCode.ok
        }
        guard let name = args.positionals.first else {
            print(HelpText.program(CommandCatalog.program), terminator: "")
            return ExitCode.ok
        }
        let command = try CommandCatalog.program.resolve(name)
        guard args.positionals.count > 1 else {
            print(HelpText.command(command, path: name, program: "kiln"), terminator: "")
            return ExitCode.ok
        }
        // Parsed as `kiln COMMAND ACTION --help` would be, so a mistyped action gets the same
        // "did you mean" as there.
        let parsed = try CommandLineParser.parse(
            [args.positionals[1], "--help"], spec: command, command: name)
        guard parsed.command != name else {
            throw args.usageError("\(name) has no actions")
        }
        print(HelpText.command(parsed.spec, path: parsed.command, program: "kiln"), terminator: "")
        return ExitCode.ok
    }
}
