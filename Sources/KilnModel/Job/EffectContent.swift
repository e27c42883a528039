/// The content of one effect stage, defined by the scene module; the model only carries it.
public protocol EffectContent: Sendable {}
