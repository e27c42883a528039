/// One entry of a parameter table: everything needed to decode, validate and document a key.
public struct Parameter: Sendable {
    public let name: String
    public let kind: ParameterKind
    /// nil makes the key required, except for list kinds, which default to an empty list.
    public let defaultValue: ParameterValue?
    public let help: String
    /// How documentation states the default when the stored value is only a placeholder (e.g.
    /// "the frame's centre" for a position that is computed when the key is absent).
    public let defaultDescription: String?

    /// Tables name their parameters through keys (`ParameterKey`); a name alone is for the tables
    /// built from data (the modifiers).
    init(
        name: String, _ kind: ParameterKind, default defaultValue: ParameterValue? = nil,
        defaultDescription: String? = nil, help: String
    ) {
        // A mismatched default is a bug in the table, not in a user's job: fail loudly at startup.
        precondition(
            defaultValue.map { $0.fits(kind) } ?? true,
            "default \(String(describing: defaultValue)) does not fit parameter '\(name)' of kind \(kind)")
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.help = help
        self.defaultDescription = defaultDescription
    }

    public var isRequired: Bool { defaultValue == nil && !kind.isList }
}
