import KilnRaster

/// One layer prepared for a frame: how to paint it, its opacity, its composed colour effects and
/// how it mixes with what is below it.
public struct PreparedItem: Sendable {
    public let layer: any PreparedLayer
    public let opacity: Float
    /// How the item mixes with the items below it in its stack; nil for source-over (`normal`),
    /// the only case the stack's one-pass paths handle.
    public let blend: BlendFormula?
    /// The layer's colour effects composed into one matrix; nil when it has none.
    public let colors: ColorMatrix?
    /// Set when the layer is blurred: it is painted and blurred before the bands, and the band
    /// pass copies it from there.
    public let offscreen: Offscreen?

    /// The frame pixels the item can touch; nil when any. Computed once here because every band
    /// of the frame asks, for every item of every stack.
    let extent: PixelExtent?

    public init(
        layer: any PreparedLayer, opacity: Float, colors: ColorMatrix?, offscreen: Offscreen? = nil,
        blend: BlendFormula? = nil
    ) {
        self.layer = layer
        self.opacity = opacity
        self.blend = blend
        self.colors = colors
        self.offscreen = offscreen
        // The offscreen applies these colours to its image once it has blurred it.
        if let colors { offscreen?.colorsAfterBlur = colors }
        extent = offscreen.map(\.extent) ?? layer.extent
    }
}
