/// A JSON Schema (draft 2020-12) fragment together with the named definitions it refers to, so
/// fragments built next to the decoders they describe can be combined anywhere and the document
/// still gathers every definition it needs into `$defs`.
public struct JSONSchema: Sendable, Equatable {
    public private(set) var keywords: [OrderedJSON.Member]
    /// Definitions this fragment refers to with `$ref: #/$defs/NAME`, by name.
    public private(set) var definitions: [String: JSONSchema]
    /// Definitions referred to by name only, which the document that holds the fragment supplies
    /// (a layer, a transition: recursive shapes the registry owns).
    public private(set) var sharedReferences: Set<SharedDefinition>

    public init(_ keywords: [OrderedJSON.Member] = []) {
        self.keywords = keywords
        self.definitions = [:]
        self.sharedReferences = []
    }

    /// Accepts any value.
    public static let anything = JSONSchema()

    public var json: OrderedJSON { .object(keywords) }

    /// This schema with one more keyword (replacing one of the same name).
    public func with(_ key: String, _ value: OrderedJSON) -> JSONSchema {
        var copy = self
        copy.keywords.removeAll { $0.key == key }
        copy.keywords.append(.init(key, value))
        return copy
    }

    /// This schema with a nested schema under `key` (`not`, `if`, `items`…), keeping its definitions.
    public func with(_ key: String, _ schema: JSONSchema) -> JSONSchema {
        var copy = with(key, schema.json)
        copy.absorb(schema)
        return copy
    }

    /// This schema with a list of nested schemas under `key` (`anyOf`, `allOf`, `prefixItems`…).
    public func with(_ key: String, _ schemas: [JSONSchema]) -> JSONSchema {
        var copy = with(key, .array(schemas.map(\.json)))
        for schema in schemas { copy.absorb(schema) }
        return copy
    }

    /// This schema with a `description`, which editors show beside the key.
    public func describing(_ text: String) -> JSONSchema { with("description", .string(text)) }

    /// `{"$ref": "#/$defs/NAME"}`, carrying `definition` so the document can hold it.
    public static func reference(_ name: String, to definition: JSONSchema) -> JSONSchema {
        var schema = JSONSchema([.init("$ref", .string("#/$defs/" + name))])
        schema.absorb(definition)
        schema.add(name, definition)
        return schema
    }

    /// `{"$ref": "#/$defs/NAME"}` to a definition the document supplies.
    public static func reference(_ shared: SharedDefinition) -> JSONSchema {
        var schema = JSONSchema([.init("$ref", .string("#/$defs/" + shared.rawValue))])
        schema.sharedReferences.insert(shared)
        return schema
    }

    /// Any of `schemas`; an alternative that is itself only an `anyOf` is spliced in.
    public static func anyOf(_ schemas: [JSONSchema]) -> JSONSchema {
        let flat = schemas.flatMap { schema in
            schema.keywords.count == 1 && schema.keywords[0].key == "anyOf" ? schema.alternatives : [schema]
        }
        return flat.count == 1 ? flat[0] : JSONSchema().with("anyOf", flat)
    }

    /// The parts of an `anyOf`, each with the definitions it needs.
    private var alternatives: [JSONSchema] {
        guard case .array(let parts) = keywords[0].value else { return [self] }
        return parts.map { part in
            var schema = JSONSchema()
            if case .object(let members) = part { schema.keywords = members }
            schema.definitions = definitions
            schema.sharedReferences = sharedReferences
            return schema
        }
    }

    public static func type(_ name: String) -> JSONSchema { JSONSchema([.init("type", .string(name))]) }

    public static func enumeration(_ values: [String]) -> JSONSchema {
        JSONSchema([.init("enum", .array(values.map(OrderedJSON.string)))])
    }

    public static func pattern(_ regex: String) -> JSONSchema {
        type("string").with("pattern", .string(regex))
    }

    /// An object with exactly these keys (no others), `required` among them.
    public static func object(_ properties: [(String, JSONSchema)], required: [String] = []) -> JSONSchema {
        var schema = type("object").with(
            "properties", .object(properties.map { .init($0.0, $0.1.json) }))
        for (_, property) in properties { schema.absorb(property) }
        if !required.isEmpty { schema = schema.with("required", .array(required.map(OrderedJSON.string))) }
        return schema.with("additionalProperties", .bool(false))
    }

    /// An array of `element`s, `count` of them when given.
    public static func array(of element: JSONSchema, count: ClosedRange<Int>? = nil) -> JSONSchema {
        var schema = type("array").with("items", element)
        if let count {
            if count.lowerBound > 0 { schema = schema.with("minItems", .number(Double(count.lowerBound))) }
            if count.upperBound < Int.max {
                schema = schema.with("maxItems", .number(Double(count.upperBound)))
            }
        }
        return schema
    }

    /// An object that must have `keys`: for `anyOf`/`oneOf`/`not` over which keys are given.
    public static func requiring(_ keys: [String]) -> JSONSchema {
        JSONSchema([.init("required", .array(keys.map(OrderedJSON.string)))])
    }

    /// An object that has `key`, matching `schema` (its other keys free): a condition for `when`.
    public static func having(_ key: String, _ schema: JSONSchema) -> JSONSchema {
        JSONSchema().with("properties", .object([.init(key, schema.json)])).with(
            "required", .array([.string(key)])
        )
        .absorbing(schema)
    }

    /// An object without any of `keys`.
    public static func forbidding(_ keys: [String]) -> JSONSchema {
        JSONSchema().with("not", .anyOf(keys.map { .requiring([$0]) }))
    }

    /// `rule` for values that match `condition`, `otherwise` (when given) for the rest.
    public static func when(_ condition: JSONSchema, then rule: JSONSchema, otherwise: JSONSchema? = nil)
        -> JSONSchema
    {
        let schema = JSONSchema().with("if", condition).with("then", rule)
        return otherwise.map { schema.with("else", $0) } ?? schema
    }

    private func absorbing(_ other: JSONSchema) -> JSONSchema {
        var copy = self
        copy.absorb(other)
        return copy
    }

    /// Every definition this fragment needs, with the shared ones resolved by `shared`, as the
    /// `$defs` object of a document (sorted by name, so the document is stable).
    public func definitionsObject(shared: (SharedDefinition) -> JSONSchema) -> OrderedJSON {
        var all = definitions
        var pending = Array(sharedReferences)
        var resolved: Set<SharedDefinition> = []
        while let next = pending.popLast() {
            guard resolved.insert(next).inserted else { continue }
            let definition = shared(next)
            for (name, nested) in definition.definitions { Self.merge(name, nested, into: &all) }
            Self.merge(next.rawValue, definition, into: &all)
            pending += definition.sharedReferences.subtracting(resolved)
        }
        return .object(all.keys.sorted().map { .init($0, all[$0]!.json) })
    }

    private mutating func absorb(_ other: JSONSchema) {
        for (name, definition) in other.definitions { add(name, definition) }
        sharedReferences.formUnion(other.sharedReferences)
        for definition in other.definitions.values {
            sharedReferences.formUnion(definition.sharedReferences)
        }
    }

    private mutating func add(_ name: String, _ definition: JSONSchema) {
        Self.merge(name, definition, into: &definitions)
    }

    private static func merge(_ name: String, _ definition: JSONSchema, into all: inout [String: JSONSchema])
    {
        if let existing = all[name] {
            precondition(existing.json == definition.json, "two different schema definitions named '\(name)'")
            return
        }
        all[name] = definition
    }
}

/// The definitions of recursive or registry-owned shapes that fragments in the model refer to by
/// name: the document (`JobSchema` in the scene module) supplies one for each case.
public enum SharedDefinition: String, Sendable, CaseIterable {
    case layer
    case transition
    case effectStage
}
