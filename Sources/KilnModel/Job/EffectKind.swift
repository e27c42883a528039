/// A registered effect: its parameters and how to build it. A stage is written as an object with
/// one key, the effect's name: `{"hueRotation": {"degrees": 45}}`, or with a bare number for the
/// effect's `shorthand` parameter: `{"hueRotation": 45}`.
public struct EffectKind: Sendable {
    public let name: String
    public let summary: String
    public let parameters: ParameterTable
    /// The parameter a bare number sets, if any.
    public let shorthand: String?
    public let make: @Sendable (DecodedParameters, JSONPath, DecodeContext) -> (any EffectContent)?

    public init(
        name: String, summary: String, parameters: ParameterTable, shorthand: String? = nil,
        make: @escaping @Sendable (DecodedParameters, JSONPath, DecodeContext) -> (any EffectContent)?
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.shorthand = shorthand
        self.make = make
    }
}
