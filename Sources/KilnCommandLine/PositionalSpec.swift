/// A command's positional argument: `JOB`, `ID`, `NAME`.
public struct PositionalSpec: Sendable, Equatable {
    public enum Count: Sendable, Equatable {
        case one, optional, oneOrMore, zeroOrMore
    }

    public let name: String
    public let kind: ValueKind
    public let count: Count
    public let help: String

    public init(_ name: String, kind: ValueKind = .string, count: Count = .one, help: String) {
        precondition(kind != .flag, "a positional argument takes a value")
        self.name = name
        self.kind = kind
        self.count = count
        self.help = help
    }

    /// `JOB`, `[ID]` or `JOB...` for a synopsis.
    public var synopsis: String {
        switch count {
        case .one: return name
        case .optional: return "[\(name)]"
        case .oneOrMore: return "\(name)..."
        case .zeroOrMore: return "[\(name)...]"
        }
    }
}
