import KilnRaster

public protocol PreparedLayer: Sendable {
    /// Paints frame rows `firstRow..<firstRow+rows` into `band` (band row 0 = `firstRow`), replacing
    /// its contents within `columns`: there, pixels the layer does not cover become transparent;
    /// outside `columns` the band may hold anything (a clipping group, which asks for fewer
    /// columns, masks the rest away). `pool` lends the worker's scratch bands to layers that
    /// composite others (groups).
    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool)

    /// The frame pixels the layer can touch; nil when it may touch any (frame-sized content).
    var extent: PixelExtent? { get }

    /// Appends the offscreen (blurred) layers inside this one, innermost first: they are
    /// rendered before the frame's bands, in this order.
    func collectOffscreens(into list: inout [Offscreen])

    /// Composites the layer, faded by `opacity`, source-over onto what `band` holds within
    /// `columns`, in one pass. Returns false when the layer cannot, and the stack then paints it
    /// into a scratch band and composites that.
    func paintOver(
        into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, opacity: Float, pool: BandPool
    ) -> Bool

    /// What alone determines the pixels `paint` gives, when the layer can say: two layers with
    /// equal keys paint the same pixels into any band (an offscreen of such a layer is kept from
    /// frame to frame, `OffscreenImages`). nil (the default): not known, never reused.
    var contentKey: LayerContentKey? { get }

    /// The same layer painted onto another pixel grid that `gridFromFrame` maps the frame onto
    /// (a large blur's reduced copy: a quarter of the size), `gridWidth` × `gridHeight` pixels,
    /// filtered for that grid's pixel size; nil (the default) when the layer cannot.
    func mapped(by gridFromFrame: Affine2D, gridWidth: Int, gridHeight: Int) -> (any PreparedLayer)?
}

extension PreparedLayer {
    public var contentKey: LayerContentKey? { nil }
    public func mapped(by gridFromFrame: Affine2D, gridWidth: Int, gridHeight: Int) -> (any PreparedLayer)? {
        nil
    }
    public var extent: PixelExtent? { nil }
    public func collectOffscreens(into list: inout [Offscreen]) {}
    public func paintOver(
        into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, opacity: Float, pool: BandPool
    ) -> Bool { false }
}

extension PreparedLayer {
    /// Paints every column.
    public func paint(into band: PlanarBand, firstRow: Int, rows: Int, pool: BandPool) {
        paint(into: band, firstRow: firstRow, rows: rows, columns: 0..<band.width, pool: pool)
    }

    /// Paints every column with a private pool (tests and one-off renders).
    public func paint(into band: PlanarBand, firstRow: Int, rows: Int) {
        paint(
            into: band, firstRow: firstRow, rows: rows,
            pool: BandPool(width: band.width, rows: band.capacityRows))
    }
}
