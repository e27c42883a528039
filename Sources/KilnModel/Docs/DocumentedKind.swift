/// Anything the registry lists with a parameter table (a layer kind, an effect, a transition), as
/// the generated docs see it: one shape, so a new registry list documents itself with one line.
public protocol DocumentedKind: Sendable {
    /// The name written in jobs.
    var name: String { get }
    var summary: String { get }
    var parameters: ParameterTable { get }
    /// How the kind is written besides its parameter object, e.g. an effect's bare-number shorthand.
    var shorthandNote: String? { get }
}

extension DocumentedKind {
    public var shorthandNote: String? { nil }
}

extension LayerKind: DocumentedKind {}

extension EffectKind: DocumentedKind {
    public var shorthandNote: String? { shorthand.map { "a bare number sets `\($0)`" } }
}

extension TransitionKind: DocumentedKind {
    public var shorthandNote: String? { shorthand.map { "a plain value sets `\($0)`" } }
}
