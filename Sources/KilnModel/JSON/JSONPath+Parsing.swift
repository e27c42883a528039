extension JSONPath {
    /// Reads a path as `description` prints it (`layers[2].effects[0].ripple.amplitude`,
    /// `comment["my key"]`, a leading `$.` allowed); nil when it is not one.
    public init?(parsing text: String) {
        var rest = Substring(text.hasPrefix("$") ? String(text.dropFirst()) : text)
        var components: [Component] = []
        while !rest.isEmpty {
            if rest.hasPrefix("[") {
                rest.removeFirst()
                if rest.hasPrefix("\"") {
                    guard let (key, after) = Self.quotedKey(rest) else { return nil }
                    components.append(.key(key))
                    rest = after
                } else {
                    let digits = rest.prefix { $0.isASCII && $0.isNumber }
                    guard let index = Int(digits) else { return nil }
                    components.append(.index(index))
                    rest = rest.dropFirst(digits.count)
                }
                guard rest.hasPrefix("]") else { return nil }
                rest.removeFirst()
            } else {
                if rest.hasPrefix(".") {
                    guard !components.isEmpty || text.hasPrefix("$") else { return nil }
                    rest.removeFirst()
                } else if !components.isEmpty {
                    return nil
                }
                let key = rest.prefix { $0 != "." && $0 != "[" }
                guard !key.isEmpty else { return nil }
                components.append(.key(String(key)))
                rest = rest.dropFirst(key.count)
            }
        }
        guard !components.isEmpty else { return nil }
        self.init(components: components)
    }

    /// `"…"` with `\"`, `\\`, `\n`, `\t` and `\r` escapes; the key and what follows the quote.
    private static func quotedKey(_ text: Substring) -> (String, Substring)? {
        var rest = text.dropFirst()
        var key = ""
        while let character = rest.first {
            rest.removeFirst()
            switch character {
            case "\"": return (key, rest)
            case "\\":
                guard let escaped = rest.first else { return nil }
                rest.removeFirst()
                switch escaped {
                case "n": key.append("\n")
                case "t": key.append("\t")
                case "r": key.append("\r")
                default: key.append(escaped)
                }
            default: key.append(character)
            }
        }
        return nil
    }
}
