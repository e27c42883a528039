/// The `start --> end` line of a subtitle cue.
struct CueTiming {
    enum Style {
        /// `HH:MM:SS,mmm`; hours are required, `.` is accepted for the comma because many tools
        /// write it.
        case srt
        /// `[HH:]MM:SS.mmm`, then optional cue settings, which Kiln ignores.
        case webVTT

        var example: String {
            switch self {
            case .srt: "\"00:00:01,000 --> 00:00:04,000\""
            case .webVTT: "\"00:00:01.000 --> 00:00:04.000\" (hours optional)"
            }
        }
    }

    let start: Double
    let end: Double
    let startText: String
    let endText: String

    /// Nil when the line is not a well-formed timing line of this style.
    init?(_ line: String, style: Style) {
        var scanner = TimestampScanner(bytes: Array(line.utf8))
        scanner.skipSpaces()
        let startOffset = scanner.offset
        guard let start = scanner.timestamp(style: style) else { return nil }
        let startText = scanner.text(from: startOffset)
        scanner.skipSpaces()
        guard scanner.consume("-->") else { return nil }
        scanner.skipSpaces()
        let endOffset = scanner.offset
        guard let end = scanner.timestamp(style: style) else { return nil }
        let endText = scanner.text(from: endOffset)
        let spaces = scanner.skipSpaces()
        // Cue settings (`align:start`, `line:0`…) only exist in WebVTT and must be set apart.
        guard scanner.atEnd || (style == .webVTT && spaces > 0) else { return nil }
        self.start = start
        self.end = end
        self.startText = startText
        self.endText = endText
    }
}

private struct TimestampScanner {
    let bytes: [UInt8]
    var offset = 0

    var atEnd: Bool { offset >= bytes.count }

    @discardableResult
    mutating func skipSpaces() -> Int {
        let start = offset
        while offset < bytes.count, bytes[offset] == 0x20 || bytes[offset] == 0x09 { offset += 1 }
        return offset - start
    }

    mutating func consume(_ literal: String) -> Bool {
        let literalBytes = Array(literal.utf8)
        guard bytes.count - offset >= literalBytes.count,
            bytes[offset..<offset + literalBytes.count].elementsEqual(literalBytes)
        else { return false }
        offset += literalBytes.count
        return true
    }

    func text(from start: Int) -> String {
        String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// Seconds, computed from whole milliseconds so that `00:00:01,500` is exactly 1.5.
    mutating func timestamp(style: CueTiming.Style) -> Double? {
        guard let first = digits() else { return nil }
        guard consume(":"), let second = digits(), second.count == 2 else { return nil }
        let hours: Int
        let minutes: Int
        let seconds: Int
        if consume(":") {
            guard let third = digits(), third.count == 2 else { return nil }
            // WebVTT writes hours with at least two digits; SubRip files in the wild use one.
            guard style == .srt || first.count >= 2 else { return nil }
            (hours, minutes, seconds) = (first.value, second.value, third.value)
        } else {
            guard style == .webVTT, first.count == 2 else { return nil }
            (hours, minutes, seconds) = (0, first.value, second.value)
        }
        let separatorAllowed = style == .srt ? consume(",") || consume(".") : consume(".")
        guard separatorAllowed, let milliseconds = digits(), milliseconds.count == 3 else { return nil }
        guard minutes < 60, seconds < 60 else { return nil }
        let total = ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds.value
        return Double(total) / 1000
    }

    /// A run of ASCII digits; nil when there is none or it is too long to be a time part (which
    /// also keeps the arithmetic above from overflowing).
    mutating func digits() -> (value: Int, count: Int)? {
        let start = offset
        var value = 0
        while offset < bytes.count, bytes[offset] >= 0x30, bytes[offset] <= 0x39 {
            value = value * 10 + Int(bytes[offset] - 0x30)
            offset += 1
            if offset - start > 9 { return nil }
        }
        return offset > start ? (value, offset - start) : nil
    }
}

extension CueTiming {
    /// The seconds of a WebVTT timestamp written alone (`00:01.500`, `00:00:01.500`): the inside
    /// of a cue text's timestamp tag. Nil for anything else.
    static func timestamp(_ text: Substring) -> Double? {
        var scanner = TimestampScanner(bytes: Array(text.utf8))
        guard let seconds = scanner.timestamp(style: .webVTT), scanner.atEnd else { return nil }
        return seconds
    }
}
