/// A registered transition: its parameters and how to build it. A transition is written as its
/// name (`"opacity"`, every parameter at its default), as `{"name": value}` where a value that is
/// not an object sets the `shorthand` parameter (`{"scale": 0.5}`), or as `{"name": {parameters}}`
/// (`{"blurReplace": {"radius": 8}}`). A structured shorthand (a list of transitions, property
/// mappings, a point) takes the value whole, objects included, and reads it at the object's own
/// path, so its diagnostics name the place the value is written.
public struct TransitionKind: Sendable {
    public let name: String
    /// One line for docs and `kiln layers`.
    public let summary: String
    public let parameters: ParameterTable
    /// The parameter a bare value sets, if any.
    public let shorthand: String?
    /// The transition as a job writes it, for messages and listings.
    public let example: String
    /// Builds the transition from decoded parameters; it may report diagnostics through the
    /// decoder's context (and decode nested transitions with it) and return nil.
    public let make: @Sendable (DecodedParameters, TransitionDecoder) -> (any TransitionContent)?

    public init(
        name: String, summary: String, parameters: ParameterTable = ParameterTable([]),
        shorthand: String? = nil, example: String,
        make: @escaping @Sendable (DecodedParameters, TransitionDecoder) -> (any TransitionContent)?
    ) {
        precondition(
            shorthand.map { parameters[$0] != nil } ?? true,
            "shorthand '\(shorthand ?? "")' is not a parameter")
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.shorthand = shorthand
        self.example = example
        self.make = make
    }

    /// A transition without parameters, written as its name.
    public init(
        name: String, summary: String, make: @escaping @Sendable () -> any TransitionContent
    ) {
        self.init(name: name, summary: summary, example: "\"\(name)\"") { _, _ in make() }
    }

    /// True when the shorthand takes any JSON value whole (objects too), not only a plain value.
    public var shorthandTakesAnyValue: Bool {
        guard let shorthand, case .structured = parameters[shorthand]?.kind else { return false }
        return true
    }
}
