import KilnRaster

/// Layers composited bottom to top, source-over: the frame's layer list and a group's children.
public struct LayerStack: Sendable {
    public let items: [PreparedItem]
    /// The union of the items' extents; nil when any may touch the whole frame.
    public let extent: PixelExtent?

    public init(items: [PreparedItem]) {
        self.items = items
        var union: PixelExtent? = .empty
        for item in items {
            guard let extent = item.extent else {
                union = nil
                break
            }
            union = union?.union(extent)
        }
        extent = union
    }

    /// Paints the stack into `band` (replacing its contents within `columns`, as
    /// `PreparedLayer.paint`). The bottom layer paints straight into the target when nothing needs
    /// to happen to it before compositing. Layers that know their extent are skipped in bands
    /// they miss and composited only over their columns: six cards cost their own area, not six
    /// frames.
    public func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        guard let first = items.first else { return band.fill(.transparent, rows: rows, columns: columns) }
        var painted = 1
        if first.opacity == 1 && first.colors == nil && first.offscreen == nil {
            if let solid = first.layer as? PreparedSolid, items.count > 1, let offscreen = items[1].offscreen
            {
                // A solid under an offscreen picture (a blurred cover): filled and composited
                // in one pass.
                offscreen.composite(
                    onto: band, over: solid.color, firstRow: firstRow, rows: rows, columns: columns,
                    opacity: items[1].opacity, pool: pool)
                painted = 2
            } else {
                first.layer.paint(into: band, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
            }
        } else if let offscreen = first.offscreen {
            // A blurred bottom layer (a clip or picture behind everything) is composited over
            // the transparent fill in one pass that does not read the band: the same bytes.
            offscreen.composite(
                onto: band, over: .transparent, firstRow: firstRow, rows: rows, columns: columns,
                opacity: first.opacity, pool: pool)
        } else {
            band.fill(.transparent, rows: rows, columns: columns)
            composite(first, onto: band, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
        }
        for item in items.dropFirst(painted) {
            composite(item, onto: band, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
        }
    }

    /// Composites the stack, source-over, onto what `band` holds within `columns`: the same as
    /// painting it into a transparent band and compositing that.
    public func composite(
        onto band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool
    ) {
        for item in items {
            composite(item, onto: band, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
        }
    }

    private func composite(
        _ item: PreparedItem, onto band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>,
        pool: BandPool
    ) {
        let bandRows = firstRow..<(firstRow + rows)
        var window = columns
        if let extent = item.extent {
            guard extent.rows.overlaps(bandRows) else { return }
            window = columns.clamped(to: extent.columns)
            guard !window.isEmpty else { return }
        }
        if let offscreen = item.offscreen {
            // The item's colours were applied to the offscreen's image when it rendered.
            offscreen.composite(
                onto: band, firstRow: firstRow, rows: rows, columns: window, opacity: item.opacity, pool: pool
            )
            return
        }
        if item.colors == nil
            && item.layer.paintOver(
                into: band, firstRow: firstRow, rows: rows, columns: window, opacity: item.opacity,
                pool: pool)
        {
            return
        }
        pool.withBand { layer in
            item.layer.paint(into: layer, firstRow: firstRow, rows: rows, columns: window, pool: pool)
            item.colors?.apply(to: layer, rows: rows, columns: window)
            Compositing.sourceOver(layer, onto: band, opacity: item.opacity, rows: rows, columns: window)
        }
    }
}

extension LayerStack {
    public func collectOffscreens(into list: inout [Offscreen]) {
        for item in items {
            item.layer.collectOffscreens(into: &list)
            if let offscreen = item.offscreen { list.append(offscreen) }
        }
    }
}
