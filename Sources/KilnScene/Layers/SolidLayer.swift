import KilnModel
import KilnRaster

/// Fills the whole frame with one (animatable) colour.
public struct SolidLayer: LayerRendering {
    public let color: Animated<RGBA>

    enum Key {
        static let color = ParameterKey<Animated<RGBA>>("color")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.color, .color, help: "fill colour (#rgb, #rrggbb, #rrggbbaa, a CSS name or [r, g, b, a])")
    ])

    public static let kind = LayerKind(
        name: "solid", summary: "fills the frame with an animatable colour", parameters: parameters
    ) { params, _, _ in
        SolidLayer(color: params[Key.color])
    }

    /// A solid is unbounded, so moving, rotating or scaling it changes nothing.
    public func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer {
        PreparedSolid(color: color.value(at: time).premultiplied)
    }
}

struct PreparedSolid: PreparedLayer {
    let color: PremultipliedColor

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        band.fill(color, rows: rows, columns: columns)
    }
}
