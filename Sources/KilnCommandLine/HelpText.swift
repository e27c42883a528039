/// `--help` text made from the descriptions: the synopsis, the prose, the options and
/// positionals in two columns, the notes.
public enum HelpText {
    /// `kiln --help`: the commands with their summaries, then the program's overview.
    public static func program(_ program: CommandLineProgram) -> String {
        var text = "\(program.name) — \(program.summary)\n\nusage: \(program.name) <command> [options]\n\n"
        text += "commands:\n"
        let rows = program.visibleCommands.map { ($0.name, $0.summary) }
        text += TextLayout.columns(rows.map { (name: $0.0, help: $0.1) }) + "\n"
        text +=
            "\nRun '\(program.name) COMMAND --help' (or '\(program.name) help COMMAND') for a command's options.\n"
        if !program.overview.isEmpty { text += "\n" + program.overview + "\n" }
        return text
    }

    /// `kiln render --help`; for a command with subcommands, each of them in turn.
    public static func command(_ spec: CommandSpec, path: String, program: String) -> String {
        if spec.subcommands.isEmpty {
            return usage([(path, spec)], program: program) + "\n" + body(spec)
        }
        let prefix = path.split(separator: " ").dropLast().map { "\($0) " }.joined()
        var text =
            usage(
                spec.subcommands.map { ("\(prefix)\(spec.name) \($0.name)", $0) }, program: program) + "\n"
        if !spec.description.isEmpty { text += "\n" + spec.description + "\n" }
        for sub in spec.subcommands {
            text += "\n\(program) \(path) \(sub.name): \(sub.summary)\n" + body(sub, description: false)
        }
        if !spec.notes.isEmpty { text += "\n" + spec.notes + "\n" }
        return text
    }

    /// `usage: kiln render JOB [-o PATH] …`, one synopsis per command, wrapped under its own name.
    static func usage(_ commands: [(words: String, spec: CommandSpec)], program: String) -> String {
        commands.enumerated().map { index, entry in
            let lead =
                (index == 0 ? "usage: " : "       ")
                + [program, entry.words].filter { !$0.isEmpty }.joined(separator: " ")
            let indent = String(repeating: " ", count: min(lead.count + 1, 40))
            return TextLayout.wrap(words: entry.spec.synopsisItems, firstIndent: lead + " ", indent: indent)
                .joined(separator: "\n")
        }.joined(separator: "\n")
    }

    static func body(_ spec: CommandSpec, description: Bool = true) -> String {
        var text = ""
        if description, !spec.description.isEmpty { text += "\n" + spec.description + "\n" }
        let rows =
            spec.positionals.map { (name: $0.name, help: $0.help) }
            + spec.options.map { (name: $0.signature, help: $0.fullHelp) }
        if !rows.isEmpty { text += "\n" + TextLayout.columns(rows) + "\n" }
        if description, !spec.notes.isEmpty { text += "\n" + spec.notes + "\n" }
        return text
    }
}
