public enum ResourceLimitError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownName(String, suggestion: String?)
    case badValue(name: String, value: String, count: Bool)
    case malformed(String)
    case aboveCeiling(name: String, value: String, ceiling: Int)

    public var description: String {
        switch self {
        case .unknownName(let name, let suggestion):
            "unknown limit '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                + " (kiln limits lists them)"
        case .badValue(let name, let value, let count):
            "limit \(name) must be a positive \(count ? "whole number" : "number"), got '\(value)'"
        case .aboveCeiling(let name, let value, let ceiling):
            "limit \(name) can be raised to at most \(ceiling) (deeper input would overflow the stack), "
                + "got \(value)"
        case .malformed(let text):
            "expected --limit NAME=VALUE, got '\(text)'"
        }
    }
}
