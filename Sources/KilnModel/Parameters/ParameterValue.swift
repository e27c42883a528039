/// A default value in a parameter table.
public enum ParameterValue: Sendable, Hashable, CustomStringConvertible {
    case number(Double)
    case integer(Int)
    case boolean(Bool)
    case string(String)
    case color(RGBA)
    case point(Point2)

    public var description: String {
        switch self {
        case .number(let value): NumberText.format(value)
        case .integer(let value): String(value)
        case .boolean(let value): String(value)
        case .string(let value): "\"\(value)\""
        case .color(let value): value.description
        case .point(let value): value.description
        }
    }

    /// Whether this default can stand for a value of `kind`; integers are accepted for numbers
    /// so tables can write `default: .integer(1)` for a number.
    func fits(_ kind: ParameterKind) -> Bool {
        switch (kind, self) {
        case (.number, .number), (.number, .integer), (.constantNumber, .number), (.constantNumber, .integer),
            (.integer, .integer), (.boolean, .boolean),
            (.string, .string), (.choice, .string), (.color, .color), (.point, .point), (.assetPath, .string),
            (.structured, .string):
            true
        default:
            false
        }
    }
}
