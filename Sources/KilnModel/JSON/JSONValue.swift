/// A parsed JSON value whose every part remembers where it was written, so that decoding
/// errors can point at line:column. Objects keep members in document order and keep
/// duplicates: rejecting duplicate keys is the decoder's job, where the path is known.
public indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([JSONMember])

    /// Names the JSON type with an article, for messages like "expected a number, got a string".
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
