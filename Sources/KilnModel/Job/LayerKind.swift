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
    /// Conditions between keys that `make` checks and a JSON Schema can state as well (exactly
    /// one of two keys), so the job schema flags them too.
    public let schemaRules: [JSONSchema]

    public init(
        name: String, summary: String, parameters: ParameterTable, containsLayers: Bool = false,
        providesScrollPhase: Bool = false, schemaRules: [JSONSchema] = [],
        make: @escaping @Sendable (DecodedParameters, JSONPath, DecodeContext) -> (any LayerContent)?
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.containsLayers = containsLayers
        self.providesScrollPhase = providesScrollPhase
        self.schemaRules = schemaRules
        self.make = make
    }

    /// Seconds within which a layer appears and disappears.
    static let lifetimeRange: ClosedRange<Double> = 0...86_400
    static let opacityRange: ClosedRange<Double> = 0...1

    enum Key {
        static let name = ParameterKey<String>("name")
        static let opacity = ParameterKey<Animated<Double>>("opacity")
        static let blendMode = ParameterKey<String>("blendMode")
        static let mask = ParameterKey<JSONNode?>("mask")
        static let effects = ParameterKey<JSONNode?>("effects")
        static let appear = ParameterKey<Animated<Double>>("appear")
        static let disappear = ParameterKey<Animated<Double>>("disappear")
        static let transition = ParameterKey<JSONNode?>("transition")
        static let transitionAnimation = ParameterKey<JSONNode?>("transitionAnimation")
        static let scrollTransition = ParameterKey<JSONNode?>("scrollTransition")
        static let visualEffect = ParameterKey<JSONNode?>("visualEffect")
        static let symbolEffects = ParameterKey<JSONNode?>("symbolEffects")
        static let symbolEffectsRemoved = ParameterKey<Bool>("symbolEffectsRemoved")
        static let compositingGroup = ParameterKey<Bool>("compositingGroup")
        static let layers = ParameterKey<JSONNode?>("layers")
    }

    /// The keys every layer has besides `type`, decoded by the loader rather than by the kind's
    /// table; described here for the schema, and `commonKeys` comes from this list so a new one
    /// cannot be missing from either.
    public static let commonParameters: [Parameter] = [
        Parameter(
            Key.name, .string, default: .string(""), defaultDescription: "none",
            help: "a label for messages and tools"),
        Parameter(
            Key.opacity, .number(opacityRange), default: .number(1), help: "multiplies the layer's alpha"),
        Parameter(
            Key.blendMode, .choice(BlendMode.allCases.map(\.rawValue)), default: .string("normal"),
            help: "how the layer mixes with what lies below it in its parent (the frame or its group)"),
        Parameter(
            Key.mask, .structured("object", schema: LayerMask.schema), default: .string("none"),
            help:
                "{\"layer\": a layer placed in this layer's box, \"mode\": alpha or luminance, \"inverted\": false}: its coverage multiplies this layer's pixels"
        ),
        Parameter(
            Key.effects, .structured("array of effect stages", schema: .array(of: .reference(.effectStage))),
            default: .string("none"), help: "effect stages applied to the layer's pixels, in order"),
        Parameter(
            Key.appear, .constantNumber(lifetimeRange), default: .number(0),
            defaultDescription: "none: present from the start", help: "seconds at which the layer enters"),
        Parameter(
            Key.disappear, .constantNumber(lifetimeRange), default: .number(0),
            defaultDescription: "none: never leaves", help: "seconds at which the layer leaves, after appear"),
        Parameter(
            Key.transition, .structured("string, object or array", schema: .reference(.transition)),
            default: .string("opacity"), help: "how it enters and leaves; needs appear or disappear"),
        Parameter(
            Key.transitionAnimation, .structured("object", schema: ModifierDecoding.animationSchema),
            default: .string("SwiftUI's default spring"),
            help: "the curve the transition follows; needs appear or disappear"),
        Parameter(
            Key.scrollTransition,
            .structured("object of property mappings", schema: ModifierDecoding.mappingsSchema),
            default: .string("none"),
            help: "only inside a scroll layer: properties driven by the item's scroll phase"),
        Parameter(
            Key.visualEffect,
            .structured("object of property mappings", schema: ModifierDecoding.mappingsSchema),
            default: .string("none"), help: "properties driven by the layer's position on screen"),
        Parameter(
            Key.symbolEffects,
            .structured("array of symbol effects", schema: SymbolEffectDecoding.listSchema),
            default: .string("none"), help: "SF Symbols' animations of the symbols in the layer"),
        Parameter(
            Key.symbolEffectsRemoved, .boolean, default: .boolean(false),
            help: "drops the symbol effects inherited from enclosing layers"),
    ]

    /// What the loader checks between the common keys that a schema can state too.
    public static let commonSchemaRules: [JSONSchema] = [
        .when(
            .anyOf([.requiring(["transition"]), .requiring(["transitionAnimation"])]),
            then: .anyOf([.requiring(["appear"]), .requiring(["disappear"])]))
    ]

    /// Keys every layer has, handled by the loader rather than by the kind's table.
    public static let commonKeys = Set(["type"] + commonParameters.map(\.name))

    /// A container's `compositingGroup`, decoded by the loader.
    public static let compositingGroupParameter = Parameter(
        Key.compositingGroup, .boolean, default: .boolean(true),
        help:
            "children composited into one picture before the container's opacity applies; false: each child is faded by it and blends with what lies below the container"
    )

    /// The keys a container has besides the common ones, decoded by the loader.
    public static var containerParameters: [Parameter] { [childrenParameter, compositingGroupParameter] }

    /// Keys a container has besides the common ones.
    public static let containerKeys = Set(containerParameters.map(\.name))

    /// A container's `layers`, decoded by the loader (each child through the registry).
    public static let childrenParameter = Parameter(
        Key.layers, .structured("array of layers", schema: .array(of: .reference(.layer))),
        help:
            "the children, bottom to top (along the axis in a stack or scroll); any kind, containers included"
    )
}
