/// A program's commands and the prose its top-level help ends with: the one value help, the
/// completion scripts and the man page are made from.
public struct CommandLineProgram: Sendable {
    public let name: String
    /// One line: what the program does.
    public let summary: String
    public let commands: [CommandSpec]
    /// Top-level prose after the command list (environment, exit codes).
    public let overview: String
    /// What may stand in place of a command (`--help`, `--version`), for "did you mean".
    public let options: [String]

    public init(
        name: String, summary: String, commands: [CommandSpec], overview: String,
        options: [String] = ["--help"]
    ) {
        self.name = name
        self.summary = summary
        self.commands = commands
        self.overview = overview
        self.options = options
    }

    public var visibleCommands: [CommandSpec] { commands.filter { !$0.hidden } }

    public func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// The command named by `word`, or a usage error suggesting the nearest visible one (or the
    /// program's option, for a word with a dash).
    public func resolve(_ word: String) throws -> CommandSpec {
        if let spec = command(named: word) { return spec }
        if word.hasPrefix("-") {
            throw UsageError(
                "unknown option '\(word)'" + NameSuggestion.hint(for: word, among: options), command: nil)
        }
        var hint = NameSuggestion.hint(for: word, among: visibleCommands.map(\.name))
        // `kiln pause nightly` means `kiln schedule pause nightly`: the action without its command.
        if hint.isEmpty, let path = commandPaths.first(where: { $0.words.hasSuffix(" \(word)") }) {
            hint = "; did you mean '\(path.words)'?"
        }
        throw UsageError("unknown command '\(word)'" + hint, command: nil)
    }

    /// Every visible command and subcommand with the words that reach it (`schedule add`).
    public var commandPaths: [(words: String, spec: CommandSpec)] {
        visibleCommands.flatMap { spec in
            [(spec.name, spec)] + spec.subcommands.map { ("\(spec.name) \($0.name)", $0) }
        }
    }
}
