/// A strict RFC 8259 parser that records the location of every value and key.
///
/// Job files may come from untrusted sources, so the input's size, its number of values and its
/// nesting are bounded (`ResourceLimits`' json-bytes, json-values, json-depth) while parsing,
/// before the tree they would need is built: a small file of many values costs a node each, and
/// recursion depth would otherwise be attacker-controlled.
public enum JSONParser {
    public static let maximumDepth = Int(ResourceLimits.Name.jsonDepth.defaultValue)

    public static func parse(_ bytes: [UInt8], limits: ResourceLimits = ResourceLimits())
        throws(JSONSyntaxError) -> JSONNode
    {
        if let problem = limits.violation(.jsonBytes, bytes.count, "the JSON text's size in bytes") {
            throw JSONSyntaxError(location: SourceLocation(line: 1, column: 1), message: problem)
        }
        var reader = JSONReader(
            bytes: bytes, maximumDepth: limits.count(.jsonDepth), maximumValues: limits.count(.jsonValues))
        return try reader.parseDocument()
    }
}

private enum ASCII {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let star = UInt8(ascii: "*")

    static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }
    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}

private struct JSONReader {
    let bytes: [UInt8]
    var offset = 0
    var line = 1
    var column = 1
    var depth = 0
    let maximumDepth: Int
    var values = 0
    let maximumValues: Int

    init(bytes: [UInt8], maximumDepth: Int, maximumValues: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.maximumValues = maximumValues
    }

    var location: SourceLocation { SourceLocation(line: line, column: column) }
    var atEnd: Bool { offset >= bytes.count }
    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    func failure(_ message: String, at location: SourceLocation? = nil) -> JSONSyntaxError {
        JSONSyntaxError(location: location ?? self.location, message: message)
    }

    /// Consumes one byte that is not a line break. UTF-8 continuation bytes do not move the
    /// column, so columns count scalars.
    mutating func advance() {
        if bytes[offset] & 0xC0 != 0x80 { column += 1 }
        offset += 1
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            offset = 3
        }
        try skipWhitespace()
        if atEnd { throw failure("empty document; expected a JSON value") }
        let node = try parseValue()
        try skipWhitespace()
        if !atEnd { throw failure("unexpected \(describeCurrent()) after the JSON value") }
        return node
    }

    mutating func skipWhitespace() throws(JSONSyntaxError) {
        while offset < bytes.count {
            switch bytes[offset] {
            case ASCII.space, ASCII.tab:
                offset += 1
                column += 1
            case ASCII.newline:
                offset += 1
                line += 1
                column = 1
            case ASCII.carriageReturn:
                offset += 1
                // CRLF counts once (at the LF); a lone CR is an old-style line break.
                if current != ASCII.newline {
                    line += 1
                    column = 1
                }
            case ASCII.slash:
                let next = offset + 1 < bytes.count ? bytes[offset + 1] : 0
                if next == ASCII.slash || next == ASCII.star {
                    throw failure("comments are not allowed in JSON")
                }
                return
            default:
                return
            }
        }
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        try skipWhitespace()
        let startOffset = offset
        let node = try parseValueText()
        return JSONNode(value: node.value, location: node.location, byteRange: startOffset..<offset)
    }

    mutating func parseValueText() throws(JSONSyntaxError) -> JSONNode {
        let start = location
        guard let byte = current else { throw failure("unexpected end of input; expected a value") }
        values += 1
        if values > maximumValues {
            throw failure(
                ResourceLimits.message(
                    .jsonValues, value: Double(values), maximum: Double(maximumValues),
                    what: "the number of JSON values so far"), at: start)
        }
        switch byte {
        case ASCII.openBrace: return try parseObject()
        case ASCII.openBracket: return try parseArray()
        case ASCII.quote: return JSONNode(value: .string(try parseString()), location: start)
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return JSONNode(value: .number(try parseNumber()), location: start)
        default:
            if ASCII.isLetter(byte) { return JSONNode(value: try parseLiteral(), location: start) }
            throw failure("expected a value, got \(describeCurrent())")
        }
    }

    mutating func enterContainer(at start: SourceLocation) throws(JSONSyntaxError) {
        depth += 1
        if depth > maximumDepth {
            throw failure(
                "nesting is deeper than \(maximumDepth) levels (the limit json-depth; raise it with --limit json-depth=N)",
                at: start)
        }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONNode {
        let start = location
        try enterContainer(at: start)
        advance()
        var members: [JSONMember] = []
        try skipWhitespace()
        if current == ASCII.closeBrace {
            advance()
            depth -= 1
            return JSONNode(value: .object(members), location: start)
        }
        var commaLocation: SourceLocation?
        while true {
            try skipWhitespace()
            guard current == ASCII.quote else {
                if current == ASCII.closeBrace, let commaLocation {
                    throw failure("trailing comma", at: commaLocation)
                }
                if atEnd { throw failure("unexpected end of input inside an object; expected a key") }
                throw failure("expected a key in double quotes, got \(describeCurrent())")
            }
            let keyLocation = location
            let key = try parseString()
            try skipWhitespace()
            guard current == ASCII.colon else {
                if atEnd { throw failure("unexpected end of input; expected ':' after object key") }
                throw failure("expected ':' after object key, got \(describeCurrent())")
            }
            advance()
            let value = try parseValue()
            members.append(JSONMember(key: key, keyLocation: keyLocation, value: value))
            try skipWhitespace()
            switch current {
            case ASCII.comma:
                commaLocation = location
                advance()
            case ASCII.closeBrace:
                advance()
                depth -= 1
                return JSONNode(value: .object(members), location: start)
            case nil:
                throw failure("unexpected end of input; expected ',' or '}' after object member")
            default:
                throw failure("expected ',' or '}' after object member")
            }
        }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONNode {
        let start = location
        try enterContainer(at: start)
        advance()
        var elements: [JSONNode] = []
        try skipWhitespace()
        if current == ASCII.closeBracket {
            advance()
            depth -= 1
            return JSONNode(value: .array(elements), location: start)
        }
        var commaLocation: SourceLocation?
        while true {
            try skipWhitespace()
            if current == ASCII.closeBracket, let commaLocation {
                throw failure("trailing comma", at: commaLocation)
            }
            elements.append(try parseValue())
            try skipWhitespace()
            switch current {
            case ASCII.comma:
                commaLocation = location
                advance()
            case ASCII.closeBracket:
                advance()
                depth -= 1
                return JSONNode(value: .array(elements), location: start)
            case nil:
                throw failure("unexpected end of input; expected ',' or ']' after array element")
            default:
                throw failure("expected ',' or ']' after array element")
            }
        }
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = location
        advance()
        var buffer: [UInt8] = []
        while true {
            guard let byte = current else { throw failure("unterminated string", at: start) }
            switch byte {
            case ASCII.quote:
                advance()
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw failure("string is not valid UTF-8", at: start)
                }
                return text
            case ASCII.backslash:
                try parseEscape(into: &buffer)
            case ASCII.newline, ASCII.carriageReturn:
                throw failure("unterminated string", at: start)
            case 0..<0x20:
                throw failure("control character U+\(hex4(UInt32(byte))) must be escaped in a string")
            default:
                buffer.append(byte)
                advance()
            }
        }
    }

    mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONSyntaxError) {
        let escapeLocation = location
        advance()
        guard let byte = current else { throw failure("unterminated string") }
        let simple: UInt8? =
            switch byte {
            case ASCII.quote: ASCII.quote
            case ASCII.backslash: ASCII.backslash
            case ASCII.slash: ASCII.slash
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): ASCII.newline
            case UInt8(ascii: "r"): ASCII.carriageReturn
            case UInt8(ascii: "t"): ASCII.tab
            default: nil
            }
        if let simple {
            buffer.append(simple)
            advance()
            return
        }
        guard byte == UInt8(ascii: "u") else {
            throw failure("invalid escape '\\\(describeByte(byte))' in string", at: escapeLocation)
        }
        advance()
        var scalarValue = try parseHex4(escapeLocation: escapeLocation)
        if (0xDC00...0xDFFF).contains(scalarValue) {
            throw failure("unpaired surrogate \\u\(hex4(scalarValue)) in string", at: escapeLocation)
        }
        if (0xD800...0xDBFF).contains(scalarValue) {
            let lowLocation = location
            guard current == ASCII.backslash, offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u")
            else {
                throw failure("unpaired surrogate \\u\(hex4(scalarValue)) in string", at: escapeLocation)
            }
            advance()
            advance()
            let low = try parseHex4(escapeLocation: lowLocation)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw failure("unpaired surrogate \\u\(hex4(scalarValue)) in string", at: escapeLocation)
            }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        }
        // Surrogates were handled above, so every remaining value is a valid scalar.
        let scalar = Unicode.Scalar(scalarValue) ?? "\u{FFFD}"
        buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    mutating func parseHex4(escapeLocation: SourceLocation) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexDigitValue(byte) else {
                throw failure("invalid \\u escape: expected 4 hexadecimal digits", at: escapeLocation)
            }
            value = value << 4 | digit
            advance()
        }
        return value
    }

    func hexDigitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case ASCII.zero...ASCII.nine: UInt32(byte - ASCII.zero)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = location
        let startOffset = offset
        if current == ASCII.minus { advance() }
        guard let first = current, ASCII.isDigit(first) else {
            throw failure("invalid number: expected a digit after '-'")
        }
        advance()
        if first == ASCII.zero, let next = current, ASCII.isDigit(next) {
            throw failure("invalid number: leading zeros are not allowed", at: start)
        }
        skipDigits()
        if current == ASCII.dot {
            advance()
            guard let next = current, ASCII.isDigit(next) else {
                throw failure("invalid number: expected a digit after '.'")
            }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == ASCII.plus || current == ASCII.minus { advance() }
            guard let next = current, ASCII.isDigit(next) else {
                throw failure("invalid number: expected a digit in the exponent")
            }
            skipDigits()
        }
        let text = String(decoding: bytes[startOffset..<offset], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw failure("number \(text) is too large", at: start)
        }
        return value
    }

    mutating func skipDigits() {
        while let byte = current, ASCII.isDigit(byte) { advance() }
    }

    mutating func parseLiteral() throws(JSONSyntaxError) -> JSONValue {
        let start = location
        let startOffset = offset
        while let byte = current, ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: "_") {
            advance()
        }
        let word = String(decoding: bytes[startOffset..<offset], as: UTF8.self)
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        case "NaN", "Infinity", "nan", "inf", "infinity":
            throw failure("'\(word)' is not a valid JSON number", at: start)
        default:
            throw failure("invalid literal '\(word)'; strings must be in double quotes", at: start)
        }
    }

    func describeCurrent() -> String {
        guard let byte = current else { return "end of input" }
        if byte < 0x80 { return "'\(describeByte(byte))'" }
        let end = min(bytes.count, offset + 4)
        for length in stride(from: end - offset, through: 1, by: -1) {
            if let text = String(validating: bytes[offset..<offset + length], as: UTF8.self),
                let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1
            {
                return "'\(scalar)' (U+\(hex4(scalar.value)))"
            }
        }
        return "invalid UTF-8 byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return String(UnicodeScalar(byte)) }
        return "U+\(hex4(UInt32(byte)))"
    }

    func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
