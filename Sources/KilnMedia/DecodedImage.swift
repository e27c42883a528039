public struct DecodedImage: Sendable {
    public let width: Int
    public let height: Int
    /// Tightly packed (stride = width * 4) RGBA8; straight alpha unless `premultiplied`.
    public let rgba: [UInt8]
    /// True when each colour byte is already multiplied by alpha (every colour <= its alpha), as
    /// `ImageFile.decode` returns resized images. `PNGCodec.decode` never premultiplies.
    public let premultiplied: Bool

    public init(width: Int, height: Int, rgba: [UInt8], premultiplied: Bool = false) {
        self.width = width
        self.height = height
        self.rgba = rgba
        self.premultiplied = premultiplied
    }
}
