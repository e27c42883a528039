/// Why an event log could not be read: `file:line: message` (CSV), `file:line:column: path:
/// message` (JSON) or `file: message` for the whole file, as transcripts report theirs.
public struct PointerEventError: Error, Sendable, Hashable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let column: Int?
    public let message: String

    public init(file: String, line: Int?, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text + ": " + message
    }
}
