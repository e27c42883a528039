/// A rasterized glyph: premultiplied RGBA (white coverage for outline glyphs, colour for
/// emoji), `left`/`top` from the pen position to the bitmap's top-left (top upwards, as FreeType
/// gives it), in pixels of the bitmap, which are `scale` frame pixels each.
public struct GlyphBitmap: Sendable {
    public let width: Int
    public let height: Int
    public let left: Int
    public let top: Int
    public let scale: Double
    public let premultipliedRGBA: [UInt8]
    public let isColor: Bool

    static let empty = GlyphBitmap(
        width: 0, height: 0, left: 0, top: 0, scale: 1, premultipliedRGBA: [], isColor: false)
}
