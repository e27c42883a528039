/// Edits a JSON text by replacing the text of single values in place, so that everything else
/// (whitespace, key order, number spellings, line endings) stays byte for byte as the author
/// wrote it. Spans come from the parser (`JSONNode.byteRange`), so a non-ASCII string before a
/// value cannot shift one.
public enum JSONTextSplice {
    public struct Replacement: Sendable, Equatable {
        public let range: Range<Int>
        public let text: String

        public init(range: Range<Int>, text: String) {
            self.range = range
            self.text = text
        }
    }

    /// The node at `path` under `root`, or nil when a step is missing (the first of duplicate
    /// keys, as `JSONNode`'s subscript reads; the loader refuses duplicates anyway).
    public static func node(at path: JSONPath, in root: JSONNode) -> JSONNode? {
        var node = root
        for component in path.components {
            switch component {
            case .key(let key):
                guard let child = node[key] else { return nil }
                node = child
            case .index(let index):
                guard let elements = node.elements, elements.indices.contains(index) else { return nil }
                node = elements[index]
            }
        }
        return node
    }

    /// `bytes` with each replacement's range holding its text instead. Ranges must not overlap.
    public static func apply(_ replacements: [Replacement], to bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        // From the end, so the ranges still to come keep their offsets.
        for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            result.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
        }
        return result
    }

    /// A finite number as JSON text, the way people write it: `50`, not `50.0`.
    public static func literal(_ number: Double) -> String {
        NumberText.format(number)
    }

    /// A string as JSON text: only what JSON requires is escaped, so non-ASCII text stays readable.
    public static func literal(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }
}
