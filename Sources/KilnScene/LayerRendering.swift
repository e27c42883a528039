import KilnModel
import KilnRaster

/// What a layer kind's content does at render time: evaluate its animated values for one frame
/// (`prepare`), then paint any band of that frame (`PreparedLayer.paint`), possibly from many
/// threads at once. Preparing is the only place time enters, so a prepared layer is a pure
/// function of the pixel position.
public protocol LayerRendering: LayerContent {
    func prepare(at time: Double, canvas: Canvas) -> any PreparedLayer
}

public protocol PreparedLayer: Sendable {
    /// Paints frame rows `firstRow..<firstRow+rows` into `band` (band row 0 = `firstRow`), replacing
    /// its contents: pixels the layer does not cover become transparent.
    func paint(into band: PlanarBand, firstRow: Int, rows: Int)
}

/// The frame a scene is rendered into, and how it is cut into bands.
public struct Canvas: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let bandHeight: Int

    public init(width: Int, height: Int, bandHeight: Int = 8) {
        self.width = width
        self.height = height
        self.bandHeight = bandHeight
    }
}

extension RGBA {
    var premultiplied: PremultipliedColor { PremultipliedColor(straightR: r, g: g, b: b, a: a) }
}
