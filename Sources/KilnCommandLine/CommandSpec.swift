/// The declarative description of one command: everything parsing, `--help`, the completion
/// scripts and the man page know about it comes from here.
public struct CommandSpec: Sendable {
    public let name: String
    /// One line for the command list.
    public let summary: String
    /// The prose of `--help` between the synopsis and the options.
    public let description: String
    public let options: [OptionSpec]
    public let positionals: [PositionalSpec]
    /// `schedule add`, `schedule list`…: the first word picks one; its own options follow it.
    public let subcommands: [CommandSpec]
    /// Prose after the options (what an output may never be, where roots come from).
    public let notes: String
    /// Internal commands (a worker's render process): parsed like the others, listed nowhere.
    public let hidden: Bool

    public init(
        _ name: String, summary: String, description: String = "", options: [OptionSpec] = [],
        positionals: [PositionalSpec] = [], subcommands: [CommandSpec] = [], notes: String = "",
        hidden: Bool = false
    ) {
        self.name = name
        self.summary = summary
        self.description = description
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
        self.notes = notes
        self.hidden = hidden
    }

    public func option(named long: String) -> OptionSpec? {
        options.first { $0.long == long }
    }

    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// `JOB`, `[--threads N]`…: the synopsis after the command's words, one item each.
    public var synopsisItems: [String] {
        guard subcommands.isEmpty else { return [subcommands.map(\.name).joined(separator: "|"), "..."] }
        return positionals.map(\.synopsis) + options.map(\.synopsis)
    }
}
