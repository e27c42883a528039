/// Reads SVG numbers, lists of them and the separators between them from an attribute value
/// (SVG 1.1's `number`, `comma-wsp` grammar: no hex, no `inf`/`nan`, finite values only).
struct SVGNumberScanner {
    private let bytes: [UInt8]
    private(set) var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    var isAtEnd: Bool { index >= bytes.count }

    /// The current position in characters, for messages.
    var characterOffset: Int {
        bytes[..<min(index, bytes.count)].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { index += 1 }
    }

    /// Whitespace, at most one comma, whitespace. Returns whether anything was skipped.
    @discardableResult
    mutating func skipCommaWhitespace() -> Bool {
        let start = index
        skipWhitespace()
        if peek == UInt8(ascii: ",") {
            index += 1
            skipWhitespace()
        }
        return index != start
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    /// An ASCII identifier (letters, digits, `-`), e.g. a transform's name or a unit.
    mutating func identifier() -> String {
        let start = index
        while let b = peek, isLetter(b) || b == UInt8(ascii: "-") || (index > start && isDigit(b)) {
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// The number at the current position, or nil (position unchanged) when there is none.
    mutating func number() throws(SVGValueError) -> Double? {
        let start = index
        var i = index
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
        let integerStart = i
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        var digits = i - integerStart
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            let fractionStart = i + 1
            var j = fractionStart
            while j < bytes.count, isDigit(bytes[j]) { j += 1 }
            digits += j - fractionStart
            if j > fractionStart || digits > 0 { i = j }
        }
        guard digits > 0 else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            var j = i + 1
            if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            let exponentStart = j
            while j < bytes.count, isDigit(bytes[j]) { j += 1 }
            if j > exponentStart { i = j }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw SVGValueError(message: "the number \(text) is out of range")
        }
        index = i
        return value
    }

    /// A number that must be there.
    mutating func requiredNumber(_ what: String) throws(SVGValueError) -> Double {
        guard let value = try number() else {
            throw SVGValueError(message: "expected \(what) at offset \(characterOffset)")
        }
        return value
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
}
