/// The moment a symbol layer changes to another artwork (`"replacements"` in a job).
public struct SymbolReplacement: Sendable, Hashable {
    /// Job seconds.
    public let time: Double
    /// The artwork shown from then on: k = the layer's k-th replacement (1-based; 0 is its `symbol`).
    public let artwork: Int

    public init(time: Double, artwork: Int) {
        self.time = time
        self.artwork = artwork
    }
}
