import KilnRaster

/// A blurred layer's result as a layer of its own, for stages that come after the blur.
struct OffscreenLayer: PreparedLayer {
    let offscreen: Offscreen

    var extent: PixelExtent? { offscreen.extent }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        band.fill(.transparent, rows: rows, columns: columns)
        offscreen.composite(
            onto: band, firstRow: firstRow, rows: rows, columns: columns, opacity: 1, pool: pool)
    }

    func collectOffscreens(into list: inout [Offscreen]) {
        offscreen.layer.collectOffscreens(into: &list)
        list.append(offscreen)
    }
}
