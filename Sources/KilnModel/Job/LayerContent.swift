/// The rendered content of a layer, defined by the scene module; the model only carries it.
public protocol LayerContent: Sendable {}
