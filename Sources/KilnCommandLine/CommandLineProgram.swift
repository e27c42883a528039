/// A program's commands and the prose its top-level help ends with: the one value help, the
/// completion scripts and the man page are made from.
public struct CommandLineProgram: Sendable {
    public let name: String
    /// One line: what the program does.
    public let summary: String
    public let commands: [CommandSpec]
    /// Top-level prose after the command list (environment, exit codes).
    public let overview: String

    public init(name: String, summary: String, commands: [CommandSpec], overview: String) {
        self.name = name
        self.summary = summary
        self.commands = commands
        self.overview = overview
    }

    public var visibleCommands: [CommandSpec] { commands.filter { !$0.hidden } }

    public func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// The command named by `word`, or a usage error suggesting the nearest visible one.
    public func resolve(_ word: String) throws -> CommandSpec {
        if let spec = command(named: word) { return spec }
        throw UsageError(
            "unknown command '\(word)'" + NameSuggestion.hint(for: word, among: visibleCommands.map(\.name)),
            command: nil)
    }

    /// Every visible command and subcommand with the words that reach it (`schedule add`).
    public var commandPaths: [(words: String, spec: CommandSpec)] {
        visibleCommands.flatMap { spec in
            [(spec.name, spec)] + spec.subcommands.map { ("\(spec.name) \($0.name)", $0) }
        }
    }
}
