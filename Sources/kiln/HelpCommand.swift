import KilnCommandLine

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
