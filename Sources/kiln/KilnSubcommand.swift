import KilnCommandLine

/// A `kiln` command: its description and the body that runs it with parsed arguments.
protocol KilnSubcommand: Sendable {
    static var spec: CommandSpec { get }
    static func run(_ args: ParsedArguments) throws -> Int32
}
