import KilnRaster

/// What alone determines a prepared layer's pixels (`PreparedLayer.contentKey`).
public enum LayerContentKey: Equatable, Sendable {
    /// A picture: the painter's inputs and the tint it multiplies the texels by.
    case image(ImagePainter.Inputs, tint: SIMD4<Float>)
}
