import KilnModel

/// A symbol as Kiln draws it: named layers of vector shapes in a viewBox normalised to a height
/// of 100 units, with the baseline and cap height that place it on a line of text.
public struct SymbolArtwork: Sendable {
    public let name: String
    /// Width and height of the normalised viewBox; the height is always 100.
    public let size: SIMD2<Double>
    /// y of the baseline, in normalised viewBox units.
    public let baseline: Double
    /// Height of the glyph's main body above the baseline, in normalised viewBox units.
    public let capHeight: Double
    /// Bottom first.
    public let layers: [SymbolArtworkLayer]

    public init(
        name: String, size: SIMD2<Double>, baseline: Double, capHeight: Double, layers: [SymbolArtworkLayer]
    ) {
        self.name = name
        self.size = size
        self.baseline = baseline
        self.capHeight = capHeight
        self.layers = layers
    }

    /// What the animation needs of each layer, in the same order.
    public var layerInfo: [SymbolLayerInfo] { layers.map(\.info) }

    public func layer(named name: String) -> SymbolArtworkLayer? {
        layers.first { $0.name == name }
    }
}
