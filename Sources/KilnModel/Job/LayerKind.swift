/// A registered layer type: its parameters and how to build its content. Kinds live outside
/// this module so that the model stays free of rendering code.
public struct LayerKind: Sendable {
    /// The `"type"` written in jobs, e.g. `"meshGradient"`.
    public let name: String
    /// One line for docs and `kiln layers`.
    public let summary: String
    public let parameters: ParameterTable
    /// Builds the content from decoded parameters. It may add diagnostics (e.g. a point count
    /// that does not match the grid) and return nil. Only called when the parameters themselves
    /// decoded without errors, so it never sees placeholder values.
    public let make: @Sendable (DecodedParameters, JSONPath, DecodeContext) -> (any LayerContent)?
    /// A container (a group) has a `layers` array of child layers, which the loader decodes.
    public let containsLayers: Bool
    /// A scroll container: its descendants may use `scrollTransition`.
    public let providesScrollPhase: Bool

    public init(
        name: String, summary: String, parameters: ParameterTable, containsLayers: Bool = false,
        providesScrollPhase: Bool = false,
        make: @escaping @Sendable (DecodedParameters, JSONPath, DecodeContext) -> (any LayerContent)?
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.containsLayers = containsLayers
        self.providesScrollPhase = providesScrollPhase
        self.make = make
    }

    /// Keys every layer has, handled by the loader rather than by the kind's table.
    public static let commonKeys: Set<String> = [
        "type", "name", "opacity", "effects", "appear", "disappear", "transition", "transitionAnimation",
        "scrollTransition", "visualEffect", "symbolEffects", "symbolEffectsRemoved",
    ]
}
