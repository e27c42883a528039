/// Hands out the lines of a subtitle file one at a time with their numbers. Lines are made
/// lazily so that a hostile file of millions of empty lines costs no more than its bytes.
struct TranscriptTextReader {
    let file: String
    private let bytes: [UInt8]
    private var offset = 0
    /// The number of the line `next()` returned last; 0 before the first.
    private(set) var lineNumber = 0

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
    }

    /// The next line without its terminator, or nil at the end. LF, CRLF and a lone CR all end
    /// a line (WebVTT allows each; old Mac tools wrote CR), matching how the JSON parser counts.
    mutating func next() throws(TranscriptError) -> String? {
        guard offset < bytes.count else { return nil }
        let start = offset
        while offset < bytes.count, bytes[offset] != 0x0A, bytes[offset] != 0x0D { offset += 1 }
        let end = offset
        if offset < bytes.count {
            let isCRLF = bytes[offset] == 0x0D && offset + 1 < bytes.count && bytes[offset + 1] == 0x0A
            offset += isCRLF ? 2 : 1
        }
        lineNumber += 1
        guard let text = String(validating: bytes[start..<end], as: UTF8.self) else {
            throw error("expected UTF-8 text, got a byte sequence that is not UTF-8")
        }
        return text
    }

    /// Skips blank lines (spaces and tabs count as blank) and returns the next other line.
    mutating func nextNonBlank() throws(TranscriptError) -> String? {
        while let line = try next() {
            if !Self.isBlank(line) { return line }
        }
        return nil
    }

    /// Consumes lines up to and including the next blank line or the end.
    mutating func skipBlock() throws(TranscriptError) {
        while let line = try next(), !Self.isBlank(line) {}
    }

    static func isBlank(_ line: String) -> Bool {
        line.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// An error at the line returned last, or at another line when given.
    func error(_ message: String, line: Int? = nil) -> TranscriptError {
        TranscriptError(file: file, line: line ?? max(1, lineNumber), message: message)
    }

    /// How a line is shown after "got": by its shape, never its text, since the file may be one
    /// the job's author cannot read (a parse error must not become a way to print its lines).
    static func describe(_ line: String?) -> String {
        guard let line else { return "the end of the file" }
        if isBlank(line) { return "a blank line" }
        let count = line.count
        return "a line of \(count) character\(count == 1 ? "" : "s")"
    }
}
