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

public struct JSONMember: Sendable {
    public let key: String
    public let keyLocation: SourceLocation
    public let value: JSONNode

    public init(key: String, keyLocation: SourceLocation, value: JSONNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}

public struct JSONNode: Sendable {
    public let value: JSONValue
    public let location: SourceLocation

    public init(value: JSONValue, location: SourceLocation) {
        self.value = value
        self.location = location
    }

    /// The first member with this key, or nil when absent or when this is not an object.
    public subscript(key: String) -> JSONNode? {
        members?.first { $0.key == key }?.value
    }

    public var members: [JSONMember]? {
        if case .object(let members) = value { members } else { nil }
    }

    public var elements: [JSONNode]? {
        if case .array(let elements) = value { elements } else { nil }
    }

    public var number: Double? {
        if case .number(let number) = value { number } else { nil }
    }

    public var string: String? {
        if case .string(let string) = value { string } else { nil }
    }

    public var bool: Bool? {
        if case .bool(let bool) = value { bool } else { nil }
    }
}
