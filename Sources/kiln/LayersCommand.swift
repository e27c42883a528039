import KilnCommandLine

/// `kiln layers [NAME] [--json]`: the registries' parameter tables, all of them or one name's.
enum LayersCommand: KilnSubcommand {
    static let json = OptionSpec.flag(
        "--json",
        help: "one JSON object: arrays layers, effects and transitions (each entry's name, summary and "
            + "parameters with name, type, default and help) and, without NAME, transform")
    static let spec = CommandSpec(
        "layers", summary: "list layer kinds, transform keys, effects and transitions with their parameters",
        description: """
            Lists every layer kind, the transform keys every layer takes, every effect and every
            transition, each parameter with its type, range, default and a line of help. With NAME,
            only that layer kind, effect or transition (both, where an effect and a transition share
            the name, as blur and opacity do).
            """,
        options: [json],
        positionals: [
            PositionalSpec(
                "NAME", count: .optional,
                help: "one layer kind, effect or transition, e.g. meshGradient or twirl")
        ])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        guard let name = args.positionals.first else {
            if args.flag(json) {
                try printJSON(RegistryListing.json)
            } else {
                print(RegistryListing.text)
            }
            return ExitCode.ok
        }
        let matches = RegistryListing.entries.filter { $0.name == name }
        guard !matches.isEmpty else {
            let known = RegistryListing.names
            throw args.usageError(
                "no layer kind, effect or transition named '\(name)'"
                    + NameSuggestion.hint(for: name, among: known))
        }
        if args.flag(json) {
            try printJSON(RegistryListing.json(of: matches))
        } else {
            print(RegistryListing.text(of: matches), terminator: "")
        }
        return ExitCode.ok
    }
}
