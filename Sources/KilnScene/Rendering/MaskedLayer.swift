import KilnRaster

/// A layer multiplied by its mask's coverage: the layer painted (with its colours), the mask
/// layer painted into a pooled band over the same rows and columns, then one multiply. Band by
/// band, so the frame is the same bytes for any number of threads.
struct MaskedLayer: PreparedLayer {
    let layer: any PreparedLayer
    /// Colours of the layer, applied before it is masked.
    let colors: ColorMatrix?
    /// The mask layer alone, as its own stack: its opacity, colours, blur and blend mode apply
    /// to it over transparency.
    let mask: LayerStack
    let coverage: Compositing.Coverage
    let inverted: Bool
    let extent: PixelExtent?

    init(
        layer: any PreparedLayer, colors: ColorMatrix?, mask: PreparedItem, coverage: Compositing.Coverage,
        inverted: Bool
    ) {
        self.layer = layer
        self.colors = colors
        self.mask = LayerStack(items: [mask])
        self.coverage = coverage
        self.inverted = inverted
        // Outside the mask's extent its coverage is 0: a plain mask leaves only the overlap, an
        // inverted one keeps the layer whole.
        switch (layer.extent, self.mask.extent, inverted) {
        case (let own, _, true): extent = own
        case (let own?, let cover?, false): extent = own.intersection(cover)
        case (let own, let cover, false): extent = own ?? cover
        }
    }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        var window = columns
        if let extent {
            window =
                extent.rows.overlaps(firstRow..<(firstRow + rows))
                ? columns.clamped(to: extent.columns) : 0..<0
        }
        guard !window.isEmpty else { return band.fill(.transparent, rows: rows, columns: columns) }
        if window != columns { band.fill(.transparent, rows: rows, columns: columns) }
        layer.paint(into: band, firstRow: firstRow, rows: rows, columns: window, pool: pool)
        colors?.apply(to: band, rows: rows, columns: window)
        pool.withBand { coverageBand in
            mask.paint(into: coverageBand, firstRow: firstRow, rows: rows, columns: window, pool: pool)
            Compositing.multiply(
                band, byCoverageOf: coverageBand, as: coverage, inverted: inverted, rows: rows,
                columns: window)
        }
    }

    func collectOffscreens(into list: inout [Offscreen]) {
        layer.collectOffscreens(into: &list)
        mask.collectOffscreens(into: &list)
    }
}
