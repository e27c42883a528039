/// Text from jobs (names, paths, strings quoted in messages) on its way to a terminal or log:
/// control characters are shown as `\u{1B}` instead of being sent, so a job cannot move the
/// cursor, retitle the window, hide lines or forge log entries.
public enum TerminalText {
    /// C0 controls, DEL and C1 controls escaped; a tab is kept, and newlines too when
    /// `keepingNewlines` (for messages that are several lines by design).
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingNewlines) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar, keepingNewlines) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, _ keepingNewlines: Bool) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x0A: !keepingNewlines
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    /// At most `limit` characters of `text` for quoting in a message, with how long the whole
    /// was: a refused 120 KB value must not be echoed back in full.
    public static func excerpt(_ text: String, limit: Int = 64) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.utf8.count) bytes)"
    }
}
