/// One drawing of a symbol layer at one instant: which artwork, and the pose of the whole symbol
/// and of each of its layers.
public struct SymbolDrawing: Sendable, Equatable {
    /// 0 = the layer's `symbol`; k = its k-th replacement.
    public var artwork: Int
    public var whole: SymbolPose
    /// One per layer of that artwork, in its order.
    public var layers: [SymbolPose]

    public init(artwork: Int, whole: SymbolPose = .rest, layers: [SymbolPose]) {
        self.artwork = artwork
        self.whole = whole
        self.layers = layers
    }

    /// Nothing about the drawing deviates from rest.
    public var isRest: Bool { whole.isRest && layers.allSatisfy(\.isRest) }
}
