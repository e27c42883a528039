import Foundation

/// Durations and times as users type them on the command line.
public enum DurationText {
    /// `90`, `45s`, `30m`, `12h`, `7d`, `2w`, or combinations like `1h30m`; seconds.
    public static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        if let plain = Double(text), plain >= 0 { return plain }
        var total = 0.0, number = ""
        for character in text {
            if character.isNumber || character == "." {
                number.append(character)
            } else if let unit = units[character], let value = Double(number) {
                total += value * unit
                number = ""
            } else {
                return nil
            }
        }
        return number.isEmpty && !text.isEmpty ? total : nil
    }

    /// `--at`: ISO 8601 with a zone (`2026-12-01T09:30:00Z`, `…+01:00`), a local
    /// `YYYY-MM-DD HH:MM[:SS]`, or `+DURATION` from now; wall seconds.
    public static func time(_ text: String, now: Double, timeZone: TimeZone = .current) -> Double? {
        if text.hasPrefix("+") { return seconds(String(text.dropFirst())).map { now + $0 } }
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime]
        if let date = iso.date(from: text) { return date.timeIntervalSince1970 }
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = iso.date(from: text) { return date.timeIntervalSince1970 }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = timeZone
        for format in [
            "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm",
        ] {
            local.dateFormat = format
            if let date = local.date(from: text) { return date.timeIntervalSince1970 }
        }
        return nil
    }
}
