/// Finds the line and column of an element's start tag in the source text by counting start tags
/// in document order. libxml2 keeps only a line per node (where the tag ended, for a tag spread
/// over several lines), while a message should point at the `<`. Counting is exact for a
/// well-formed document without entities, which is all the symbol reader ever sees: outside
/// comments, CDATA sections, processing instructions and the DOCTYPE, `<` appears only to open
/// a tag.
struct StartTagLocator {
    let source: [UInt8]

    /// 1-based line and column (in characters) of the start tag of the `order`-th element.
    func location(ofElement order: Int) -> (line: Int, column: Int)? {
        var remaining = order
        var index = 0
        var line = 1
        var lineStart = 0
        let count = source.count
        func advance(to end: Int) {
            while index < end, index < count {
                if source[index] == UInt8(ascii: "\n") {
                    line += 1
                    lineStart = index + 1
                }
                index += 1
            }
        }
        func skip(past terminator: [UInt8]) {
            guard let end = find(terminator, from: index) else {
                advance(to: count)
                return
            }
            advance(to: end + terminator.count)
        }
        while index < count {
            guard source[index] == UInt8(ascii: "<") else {
                advance(to: index + 1)
                continue
            }
            if hasPrefix("<!--", at: index) {
                skip(past: Array("-->".utf8))
            } else if hasPrefix("<![CDATA[", at: index) {
                skip(past: Array("]]>".utf8))
            } else if hasPrefix("<?", at: index) {
                skip(past: Array("?>".utf8))
            } else if hasPrefix("<!", at: index) {
                advance(to: endOfDeclaration(from: index))
            } else if index + 1 < count, source[index + 1] == UInt8(ascii: "/") {
                advance(to: index + 2)
            } else {
                if remaining == 0 {
                    return (line, characterCount(from: lineStart, to: index) + 1)
                }
                remaining -= 1
                advance(to: index + 1)
            }
        }
        return nil
    }

    private func hasPrefix(_ prefix: String, at index: Int) -> Bool {
        let bytes = Array(prefix.utf8)
        guard index + bytes.count <= source.count else { return false }
        return source[index..<(index + bytes.count)].elementsEqual(bytes)
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard needle.count <= source.count else { return nil }
        var i = start
        while i + needle.count <= source.count {
            if source[i] == needle[0], source[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// Past the `>` that closes a `<!DOCTYPE …>`, stepping over quoted strings, comments and the
    /// bracketed internal subset (whose own declarations hold `<` and `>`).
    private func endOfDeclaration(from start: Int) -> Int {
        var i = start + 2
        var bracketDepth = 0
        var quote: UInt8?
        while i < source.count {
            let byte = source[i]
            if let q = quote {
                if byte == q { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if hasPrefix("<!--", at: i) {
                i = (find(Array("-->".utf8), from: i).map { $0 + 3 } ?? source.count)
                continue
            } else if byte == UInt8(ascii: "[") {
                bracketDepth += 1
            } else if byte == UInt8(ascii: "]") {
                bracketDepth -= 1
            } else if byte == UInt8(ascii: ">"), bracketDepth <= 0 {
                return i + 1
            }
            i += 1
        }
        return source.count
    }

    /// Characters (UTF-8 sequences) in source[from..<to].
    private func characterCount(from start: Int, to end: Int) -> Int {
        var n = 0
        for i in start..<end where source[i] & 0xC0 != 0x80 { n += 1 }
        return n
    }
}
