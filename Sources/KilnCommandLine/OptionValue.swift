/// A parsed value: choices and paths arrive as strings, numbers already checked against their
/// kind's range.
public enum OptionValue: Sendable, Equatable {
    case flag
    case string(String)
    case int(Int)
    case double(Double)

    /// The value as a command line would spell it.
    public var text: String {
        switch self {
        case .flag: return ""
        case .string(let text): return text
        case .int(let value): return String(value)
        case .double(let value):
            return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
    }
}
