import KilnCommandLine

enum LayersCommand: KilnSubcommand {
    static let json = OptionSpec.flag(
        "--json", help: "one JSON object of layers, transform, effects and transitions")
    static let spec = CommandSpec(
        "layers", summary: "list layer kinds, transform keys, effects and transitions with their parameters",
        description: """
            Lists every layer kind, the transform keys every layer takes, every effect and every
            transition, each parameter with its type, range, default and a line of help.
            """,
        options: [json])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        if args.flag(json) {
            try printJSON(RegistryListing.json)
        } else {
            print(RegistryListing.text)
        }
        return ExitCode.ok
    }
}
