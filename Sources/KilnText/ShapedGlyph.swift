/// A shaped glyph: its id in the face, where its cluster starts in the run's UTF-8, its
/// advance and its offset from the pen position (y down), in pixels.
public struct ShapedGlyph: Sendable, Equatable {
    public let glyph: UInt32
    public let cluster: Int
    public let advance: Double
    public let offset: SIMD2<Double>
}
