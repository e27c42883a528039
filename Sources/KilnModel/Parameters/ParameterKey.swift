import Foundation

/// The name of one parameter together with the Swift type its decoded value has, declared once
/// beside the table: the table's `Parameter` is built from it and decoding reads `parameters[key]`,
/// so a misspelt name is a compile error and the value's type follows from the key.
///
/// The kinds and defaults a key accepts are narrowed by `Value` (`Kind`, `Default`), so a key
/// cannot be declared with a kind whose values it would read as something else.
public struct ParameterKey<Value>: Sendable, Hashable {
    public let name: String

    public init(_ name: String) { self.name = name }

    /// A `ParameterKind` that decodes to `Value`.
    public struct Kind: Sendable {
        public let kind: ParameterKind
    }

    /// A default value that fits `Value`.
    public struct Default: Sendable {
        public let value: ParameterValue
    }
}

extension ParameterKey.Kind where Value == Animated<Double> {
    public static func number(_ range: ClosedRange<Double>) -> Self { Self(kind: .number(range)) }
    public static func constantNumber(_ range: ClosedRange<Double>) -> Self {
        Self(kind: .constantNumber(range))
    }
}

extension ParameterKey.Kind where Value == Int {
    public static func integer(_ range: ClosedRange<Int>) -> Self { Self(kind: .integer(range)) }
}

extension ParameterKey.Kind where Value == Bool {
    public static var boolean: Self { Self(kind: .boolean) }
}

extension ParameterKey.Kind where Value == String {
    public static var string: Self { Self(kind: .string) }
    public static func choice(_ choices: [String]) -> Self { Self(kind: .choice(choices)) }
}

extension ParameterKey.Kind where Value == Animated<RGBA> {
    public static var color: Self { Self(kind: .color) }
}

extension ParameterKey.Kind where Value == Animated<Point2> {
    public static func point(_ range: ClosedRange<Double>?) -> Self { Self(kind: .point(range)) }
}

extension ParameterKey.Kind where Value == [Animated<RGBA>] {
    public static var colorList: Self { Self(kind: .colorList) }
}

extension ParameterKey.Kind where Value == [Animated<Point2>] {
    public static func pointList(_ range: ClosedRange<Double>?) -> Self { Self(kind: .pointList(range)) }
}

/// An asset reads as its resolved file (nil when absent or invalid); the path as written is
/// `DecodedParameters.writtenPath`.
extension ParameterKey.Kind where Value == URL? {
    public static var assetPath: Self { Self(kind: .assetPath) }
}

/// A structured value reads as the JSON written for it, which its owner decodes.
extension ParameterKey.Kind where Value == JSONNode? {
    public static func structured(_ shape: String, schema: JSONSchema) -> Self {
        Self(kind: .structured(shape, schema: schema))
    }
}

extension ParameterKey.Default where Value == Animated<Double> {
    public static func number(_ value: Double) -> Self { Self(value: .number(value)) }
    public static func integer(_ value: Int) -> Self { Self(value: .integer(value)) }
}

extension ParameterKey.Default where Value == Int {
    public static func integer(_ value: Int) -> Self { Self(value: .integer(value)) }
}

extension ParameterKey.Default where Value == Bool {
    public static func boolean(_ value: Bool) -> Self { Self(value: .boolean(value)) }
}

extension ParameterKey.Default where Value == String {
    public static func string(_ value: String) -> Self { Self(value: .string(value)) }
}

extension ParameterKey.Default where Value == Animated<RGBA> {
    public static func color(_ value: RGBA) -> Self { Self(value: .color(value)) }
}

extension ParameterKey.Default where Value == Animated<Point2> {
    public static func point(_ value: Point2) -> Self { Self(value: .point(value)) }
}

extension ParameterKey.Default where Value == URL? {
    public static func string(_ value: String) -> Self { Self(value: .string(value)) }
}

/// For the docs only: how an absent structured value behaves ("none").
extension ParameterKey.Default where Value == JSONNode? {
    public static func string(_ value: String) -> Self { Self(value: .string(value)) }
}

extension Parameter {
    /// The parameter `key` names; its kind and default are those a `Value` can hold.
    public init<Value>(
        _ key: ParameterKey<Value>, _ kind: ParameterKey<Value>.Kind,
        default defaultValue: ParameterKey<Value>.Default? = nil, defaultDescription: String? = nil,
        help: String
    ) {
        self.init(
            name: key.name, kind.kind, default: defaultValue?.value, defaultDescription: defaultDescription,
            help: help)
    }
}

extension DecodedParameters {
    public subscript(key: ParameterKey<Animated<Double>>) -> Animated<Double> { number(key.name) }
    public subscript(key: ParameterKey<Int>) -> Int { integer(key.name) }
    public subscript(key: ParameterKey<Bool>) -> Bool { boolean(key.name) }
    /// A `.string` or `.choice` parameter.
    public subscript(key: ParameterKey<String>) -> String { string(key.name) }
    public subscript(key: ParameterKey<Animated<RGBA>>) -> Animated<RGBA> { color(key.name) }
    public subscript(key: ParameterKey<Animated<Point2>>) -> Animated<Point2> { point(key.name) }
    public subscript(key: ParameterKey<[Animated<RGBA>]>) -> [Animated<RGBA>] { colors(key.name) }
    public subscript(key: ParameterKey<[Animated<Point2>]>) -> [Animated<Point2>] { points(key.name) }
    /// The resolved file, or nil when absent (empty default) or invalid.
    public subscript(key: ParameterKey<URL?>) -> URL? { asset(key.name) }
    /// The JSON written for a structured parameter, nil when absent.
    public subscript(key: ParameterKey<JSONNode?>) -> JSONNode? { node(key.name) }

    /// An asset's path as written in the job (or its default).
    public func writtenPath(_ key: ParameterKey<URL?>) -> String { string(key.name) }

    /// True when the key was written in the job rather than defaulted.
    public func isPresent<Value>(_ key: ParameterKey<Value>) -> Bool { isPresent(key.name) }

    /// The JSON written for the key, for caller-side checks that want a location.
    public func node<Value>(_ key: ParameterKey<Value>) -> JSONNode? { node(key.name) }

    public func path<Value>(_ key: ParameterKey<Value>) -> JSONPath { path(key.name) }
}
