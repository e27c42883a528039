public struct JSONNode: Sendable {
    public let value: JSONValue
    public let location: SourceLocation
    /// Where the value's text is in the parsed bytes, so an edit can replace just that text and
    /// keep the rest of the file as written (`JSONTextSplice`). Empty for a node built in code.
    public let byteRange: Range<Int>

    public init(value: JSONValue, location: SourceLocation, byteRange: Range<Int> = 0..<0) {
        self.value = value
        self.location = location
        self.byteRange = byteRange
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
