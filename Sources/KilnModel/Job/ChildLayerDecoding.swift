extension DecodeContext {
    /// A layer written under one of a kind's own keys (a device's `screen`), decoded as a child
    /// of the layer being built: through the registry, with this layer's depth, start and
    /// limits, its problems reported at `path`. Nil (with diagnostics) when it does not decode.
    /// The kind returns it as `NestedLayers`, so walks over the tree see it.
    public func decodeChildLayer(_ node: JSONNode, path: JSONPath) -> LayerNode? {
        guard let library = compositions else {
            error("child layers need the job loader", at: node, path: path)
            return nil
        }
        return JobDecoding(
            context: self, kinds: library.kinds, effects: library.effects, transitions: library.transitions
        ).decodeLayer(node, path: path)
    }
}
