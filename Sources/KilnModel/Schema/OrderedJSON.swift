/// A JSON value built in code whose objects keep their keys in the order they were added, so a
/// generated file (the job schema) reads in a sensible order and is byte-for-byte reproducible,
/// which is what lets a test compare the committed copy with a fresh one.
public indirect enum OrderedJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([OrderedJSON])
    case object([Member])

    public struct Member: Sendable, Equatable {
        public let key: String
        public let value: OrderedJSON

        public init(_ key: String, _ value: OrderedJSON) {
            self.key = key
            self.value = value
        }
    }

    /// Indented by two spaces; an array or object that fits on one line (within 100 columns) is
    /// written on one, so short schemas (`{"type": "string"}`, a range) read at a glance.
    public func text() -> String {
        var output = ""
        write(into: &output, indent: "", column: 0)
        return output + "\n"
    }

    private static let lineLimit = 100

    /// `column`: where the value starts on its line, so the one-line form can be measured.
    private func write(into output: inout String, indent: String, column: Int) {
        let compact = compactText
        if isScalar || column + compact.count <= Self.lineLimit {
            output += compact
            return
        }
        let inner = indent + "  "
        switch self {
        case .array(let elements) where elements.allSatisfy(\.isScalar):
            // A long list of names: as many to a line as fit.
            output += "["
            var line = ""
            for (index, element) in elements.enumerated() {
                let item = element.scalarText + (index == elements.count - 1 ? "" : ",")
                if !line.isEmpty, inner.count + line.count + 1 + item.count > Self.lineLimit {
                    output += "\n" + inner + line
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + item
            }
            output += "\n" + inner + line + "\n" + indent + "]"
        case .array(let elements):
            output += "[\n"
            for (index, element) in elements.enumerated() {
                output += inner
                element.write(into: &output, indent: inner, column: inner.count)
                output += index == elements.count - 1 ? "\n" : ",\n"
            }
            output += indent + "]"
        case .object(let members):
            output += "{\n"
            for (index, member) in members.enumerated() {
                let key = Self.quoted(member.key) + ": "
                output += inner + key
                member.value.write(into: &output, indent: inner, column: inner.count + key.count)
                output += index == members.count - 1 ? "\n" : ",\n"
            }
            output += indent + "}"
        default:
            output += compact
        }
    }

    /// The value on one line, with a space after each `:` and `,`.
    private var compactText: String {
        switch self {
        case .array(let elements): "[" + elements.map(\.compactText).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.map { Self.quoted($0.key) + ": " + $0.value.compactText }.joined(separator: ", ")
                + "}"
        default: scalarText
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    private var scalarText: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let value): Self.numberText(value)
        case .string(let value): Self.quoted(value)
        case .array, .object: preconditionFailure("not a scalar")
        }
    }

    /// Whole numbers without a fraction (`8192`, not `8192.0`); others in Swift's shortest form,
    /// which is valid JSON (`0.01`, `1e-05`).
    static func numberText(_ value: Double) -> String {
        precondition(value.isFinite, "JSON has no \(value)")
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    static func quoted(_ text: String) -> String { JSONTextSplice.literal(text) }
}
