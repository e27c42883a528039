/// What an option or positional argument takes, which decides how its text is checked and
/// converted, how its help names it and what a shell completes for it.
public enum ValueKind: Sendable, Equatable {
    /// No value: present or absent.
    case flag
    case string
    /// A file or directory: completed as one.
    case path
    case int(ClosedRange<Int>)
    /// A finite number at or above the minimum.
    case double(minimum: Double)
    /// One of a fixed set of words.
    case choice([String])

    /// Converts one value's text, or says what was expected.
    func convert(_ text: String) -> Result<OptionValue, ValueProblem> {
        switch self {
        case .flag:
            return .failure(ValueProblem(expected: "no value"))
        case .string, .path:
            return .success(.string(text))
        case .int(let range):
            guard let value = Int(text), range.contains(value) else {
                return .failure(
                    ValueProblem(expected: "an integer in \(range.lowerBound)…\(range.upperBound)"))
            }
            return .success(.int(value))
        case .double(let minimum):
            guard let value = Double(text), value.isFinite, value >= minimum else {
                return .failure(ValueProblem(expected: "a number ≥ \(OptionValue.double(minimum).text)"))
            }
            return .success(.double(value))
        case .choice(let words):
            guard words.contains(text) else {
                return .failure(ValueProblem(expected: words.joined(separator: ", ")))
            }
            return .success(.string(text))
        }
    }
}

/// Why a value's text was refused: what the option expects.
struct ValueProblem: Error {
    let expected: String
}
