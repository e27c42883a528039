/// A symbol file that cannot be drawn: where (the file, and the line and column when the problem
/// is at one place in it) and what was expected.
public struct SymbolFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    /// 1-based; nil for problems of the whole file (missing, too large).
    public let line: Int?
    /// 1-based, in characters; nil when only the line is known.
    public let column: Int?
    public let message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, the form compilers use, so editors can jump to it.
    public var description: String {
        var place = file
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        return "\(place): \(message)"
    }
}
