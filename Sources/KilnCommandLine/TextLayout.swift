/// Wraps prose and lays out the two columns of an option list, for help text.
enum TextLayout {
    static let width = 100

    /// `text` broken at spaces so no line passes `width`; lines after the first start with `indent`.
    static func wrap(_ text: String, width: Int = width, firstIndent: String = "", indent: String) -> [String]
    {
        wrap(
            words: text.split(separator: " ").map(String.init), width: width, firstIndent: firstIndent,
            indent: indent)
    }

    /// Words kept whole (a synopsis's `[--limit NAME=VALUE]...`), broken between them.
    static func wrap(words: [String], width: Int = width, firstIndent: String = "", indent: String)
        -> [String]
    {
        var lines: [String] = []
        var line = firstIndent
        var lineHasWord = false
        for word in words where !word.isEmpty {
            if lineHasWord && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }

    /// `  --name VALUE     help…` rows, the help column aligned and wrapped; a name too long
    /// for the column puts its help on the next line.
    static func columns(_ rows: [(name: String, help: String)]) -> String {
        let column = min((rows.map(\.name.count).max() ?? 0) + 4, 26)
        let indent = String(repeating: " ", count: column)
        return rows.map { name, help in
            let head = "  " + name
            let gap =
                head.count + 2 <= column ? String(repeating: " ", count: column - head.count) : "\n" + indent
            let body = wrap(help, width: width - column, indent: "").joined(separator: "\n" + indent)
            return head + gap + body
        }.joined(separator: "\n")
    }
}
