import KilnRaster

/// One drawn element of a symbol layer: its outline in the symbol's normalised viewBox space and
/// how it is painted. Colours are not kept: the symbol layer chooses them.
public struct SymbolShape: Sendable {
    /// In normalised viewBox units (height 100), every transform applied.
    public let path: VectorPath
    /// nil: not filled.
    public let fill: FillRule?
    /// nil: not stroked. The width is in normalised units, already scaled by the transforms (by
    /// the square root of their area scale when they scale unevenly).
    public let stroke: StrokeStyle?
    /// The element's and its groups' `opacity` times its `fill-opacity`.
    public let fillOpacity: Double
    /// The element's and its groups' `opacity` times its `stroke-opacity`.
    public let strokeOpacity: Double

    public init(
        path: VectorPath, fill: FillRule?, stroke: StrokeStyle?, fillOpacity: Double, strokeOpacity: Double
    ) {
        self.path = path
        self.fill = fill
        self.stroke = stroke
        self.fillOpacity = fillOpacity
        self.strokeOpacity = strokeOpacity
    }

    /// The area the shape paints: the path's exact extent, grown by half the stroke width when
    /// stroked; nil when the path is empty.
    public var bounds: (min: SIMD2<Double>, max: SIMD2<Double>)? {
        guard let box = PathExtent.of(path) else { return nil }
        let grow = (stroke?.width ?? 0) / 2
        return (box.min - grow, box.max + grow)
    }
}
