import KilnRaster

/// What alone determines a prepared layer's pixels (`PreparedLayer.contentKey`).
public enum LayerContentKey: Equatable, Sendable {
    /// A picture: the painter's inputs and the tint it multiplies the texels by.
    case image(ImagePainter.Inputs, tint: SIMD4<Float>)
    /// A picture cut by a rounded rectangle and faded (a group holding one image: a photo card).
    case clippedImage(ImagePainter.Inputs, opacity: Float, tint: SIMD4<Float>, clip: RoundedRectPainter)
}
