import Foundation

/// Renders parameter tables as Markdown for docs/job-format.md: the key, its type with range and
/// whether it animates, its default (or "required") and its help, so the reference cannot drift
/// from what the decoder accepts.
public enum ParameterTableMarkdown {
    /// One table of an object's keys.
    public static func table(_ table: ParameterTable) -> String {
        var lines = ["| Key | Type | Default | Meaning |", "|---|---|---|---|"]
        for parameter in table.parameters {
            lines.append(
                row([
                    code(parameter.name), cell(parameter.kind.description), defaultText(parameter),
                    cell(parameter.help),
                ]))
        }
        return lines.joined(separator: "\n")
    }

    /// Several kinds in one table (every effect, every transition): each kind's name, summary and
    /// shorthand on its first row, then one row per parameter.
    public static func catalogue(_ kinds: [any DocumentedKind], heading: String) -> String {
        var lines = ["| \(heading) | Key | Type | Default | Meaning |", "|---|---|---|---|---|"]
        for kind in kinds {
            let note = kind.shorthandNote.map { "; \($0)" } ?? ""
            var first = code(kind.name) + ": " + cell(kind.summary) + note
            if kind.parameters.parameters.isEmpty {
                lines.append(row([first, "", "", "", "no parameters"]))
            }
            for parameter in kind.parameters.parameters {
                lines.append(
                    row([
                        first, code(parameter.name), cell(parameter.kind.description), defaultText(parameter),
                        cell(parameter.help),
                    ]))
                first = ""
            }
        }
        return lines.joined(separator: "\n")
    }

    static func defaultText(_ parameter: Parameter) -> String {
        if let described = parameter.defaultDescription { return cell(described) }
        // A list without a default is empty, which its help qualifies ("two or more colours").
        guard let value = parameter.defaultValue else { return parameter.isRequired ? "required" : "none" }
        switch (parameter.kind, value) {
        // A structured key's default is prose ("none", "generated: seed 1"), not a JSON string.
        case (.structured, .string(let text)): return cell(text)
        case (.assetPath, .string(let text)) where text.isEmpty: return "none"
        case (_, .color(let color)): return color.a == 0 ? "transparent" : code(hex(color))
        default: return code(value.description)
        }
    }

    /// `#rrggbb` (or `#rrggbbaa`), the form jobs usually write.
    static func hex(_ color: RGBA) -> String {
        let components = color.a == 1 ? [color.r, color.g, color.b] : [color.r, color.g, color.b, color.a]
        return "#"
            + components.map { component in
                let byte = Int((min(max(component, 0), 1) * 255).rounded())
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
    }

    private static func code(_ text: String) -> String { "`\(text)`" }

    /// A table cell: a `|` would end the cell and a newline the row.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    private static func row(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }
}
