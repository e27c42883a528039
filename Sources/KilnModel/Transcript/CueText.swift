/// Turns the text lines of a subtitle cue into plain text for the overlay: markup removed,
/// lines trimmed and joined with newlines.
enum CueText {
    enum Markup {
        /// SubRip's HTML-like `<i>`, `<b>`, `<u>`, `<font …>` and ASS overrides like `{\an8}`.
        case srt
        /// WebVTT's `<v Speaker>`, `<c.class>`, `<b>`, `<ruby>`…, `<00:00:01.000>` timestamps,
        /// and the character references `&amp; &lt; &gt; &nbsp; &lrm; &rlm;`.
        case webVTT
    }

    static func plainText(of lines: [String], markup: Markup) -> String {
        lines.compactMap { line -> String? in
            let text = trimmed(stripTags(line, markup: markup))
            guard !text.isEmpty else { return nil }
            // After trimming, so that a written `&nbsp;` at an edge survives as intended.
            return markup == .webVTT ? decodeReferences(text) : text
        }.joined(separator: "\n")
    }

    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// A `<` opens a tag only when a letter or `/` follows (and, in WebVTT, a digit, for
    /// timestamp tags), and only if a `>` closes it on the same line; otherwise it is text, so
    /// "a < b" in a SubRip file keeps its sign.
    static func stripTags(_ line: String, markup: Markup) -> String {
        let scalars = Array(line.unicodeScalars)
        // Searching for a closer only before the last one means every search succeeds and its
        // span is skipped, so a hostile line of unclosed `<a` stays linear.
        let lastAngle = scalars.lastIndex(of: ">") ?? -1
        let lastBrace = scalars.lastIndex(of: "}") ?? -1
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<", index + 1 < lastAngle, opensTag(scalars[index + 1], markup: markup),
                let close = scalars[(index + 1)...].firstIndex(of: ">")
            {
                index = close + 1
                continue
            }
            if markup == .srt, scalar == "{", index + 1 < lastBrace, scalars[index + 1] == "\\",
                let close = scalars[(index + 1)...].firstIndex(of: "}")
            {
                index = close + 1
                continue
            }
            result.append(scalar)
            index += 1
        }
        return String(result)
    }

    private static func opensTag(_ scalar: Unicode.Scalar, markup: Markup) -> Bool {
        if scalar == "/" || (scalar.isASCII && scalar.properties.isAlphabetic) { return true }
        return markup == .webVTT && scalar >= "0" && scalar <= "9"
    }

    private static let references: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "nbsp": "\u{A0}", "lrm": "\u{200E}", "rlm": "\u{200F}",
    ]

    /// Unknown references stay as written: the text is shown, not rejected, for a stray `&`.
    static func decodeReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            if let semicolon = rest[afterAmpersand...].prefix(5).firstIndex(of: ";"),
                let replacement = references[String(rest[afterAmpersand..<semicolon])]
            {
                result += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[afterAmpersand...]
            }
        }
        return result + rest
    }
}
