import Foundation
import KilnCommandLine
import KilnModel
import KilnSymbols

/// `kiln symbols [NAME] [--json]`: the shipped symbols and their layers.
enum SymbolsCommand: KilnSubcommand {
    static let json = OptionSpec.flag(
        "--json", help: "one JSON object: each symbol's size, baseline and layers")
    static let spec = CommandSpec(
        "symbols", summary: "list the shipped symbols and their layers",
        description: """
            Lists the symbols a symbol layer can name with "symbol": each one's width and its
            layers in drawing order, with their level (primary, secondary, tertiary) and, for
            variable layers, the threshold at which variable value and variable colour light them.
            With NAME, only that symbol. Your own SVG symbols follow docs/symbols.md.
            """,
        options: [json],
        positionals: [PositionalSpec("NAME", count: .optional, help: "one symbol, e.g. wifi")])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        var names = SymbolCatalog.shippedNames
        if let name = args.positionals.first {
            guard SymbolCatalog.shipped(name) != nil else {
                var message = "unknown symbol '\(name)'"
                if let near = Suggestion.closest(to: name, among: names) {
                    message += "; did you mean '\(near)'?"
                }
                throw args.usageError(message)
            }
            names = [name]
        }
        let artworks = names.compactMap(SymbolCatalog.shipped)
        if args.flag(json) {
            try printJSON(["symbols": artworks.map(Self.json(of:))])
            return ExitCode.ok
        }
        for artwork in artworks {
            print("\(artwork.name)  (\(String(format: "%g", artwork.size.x)) × 100 units)")
            for layer in artwork.layers {
                var line = "  \(layer.name)  \(layer.level.rawValue)"
                if let threshold = layer.thresholdText { line += "  variable ≥ \(threshold)" }
                print(line)
            }
        }
        return ExitCode.ok
    }

    static func json(of artwork: SymbolArtwork) -> [String: Any] {
        [
            "name": artwork.name, "width": artwork.size.x, "height": artwork.size.y,
            "baseline": artwork.baseline, "capHeight": artwork.capHeight,
            "layers": artwork.layers.map { layer -> [String: Any] in
                var entry: [String: Any] = ["name": layer.name, "level": layer.level.rawValue]
                if let threshold = layer.variableThreshold { entry["variableThreshold"] = threshold }
                return entry
            },
        ]
    }
}
