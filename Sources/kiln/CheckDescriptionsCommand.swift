import KilnCommandLine

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
