import KilnRaster

/// Layers composited bottom to top, source-over unless an item has a blend mode: the frame's
/// layer list and a group's children. An item's blend mode mixes it with what the items below
/// it in this stack left (a group's children with the group's other children, over
/// transparency), as SwiftUI's `blendMode` does within its compositing group.
public struct LayerStack: Sendable {
    public let items: [PreparedItem]
    /// The union of the items' extents; nil when any may touch the whole frame.
    public let extent: PixelExtent?
    /// Some item blends with what is below it: the stack must then be painted on its own
    /// before it is composited, not composited item by item onto a backdrop from outside it.
    public let blends: Bool

    public init(items: [PreparedItem]) {
        self.items = items
        blends = items.contains { $0.blend != nil }
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
        if first.opacity == 1 && first.colors == nil && first.offscreen == nil && first.blend == nil {
            if let solid = first.layer as? PreparedSolid, items.count > 1, let offscreen = items[1].offscreen,
                items[1].blend == nil
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
        } else if let offscreen = first.offscreen, first.blend == nil {
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
    /// painting it into a transparent band and compositing that, unless the stack `blends`.
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
        if let formula = item.blend {
            return blend(
                item, by: formula, onto: band, firstRow: firstRow, rows: rows, columns: window, pool: pool)
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

    /// The general path every blended item takes (none of the one-pass paths above, which all
    /// composite source-over): the item painted alone into a pooled band, then blended.
    private func blend(
        _ item: PreparedItem, by formula: BlendFormula, onto band: PlanarBand, firstRow: Int, rows: Int,
        columns: Range<Int>, pool: BandPool
    ) {
        pool.withBand { layer in
            if let offscreen = item.offscreen {
                // Over transparency at full strength: the offscreen image's own pixels.
                offscreen.composite(
                    onto: layer, over: .transparent, firstRow: firstRow, rows: rows, columns: columns,
                    opacity: 1,
                    pool: pool)
            } else {
                item.layer.paint(into: layer, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
                item.colors?.apply(to: layer, rows: rows, columns: columns)
            }
            Compositing.blend(
                layer, onto: band, formula: formula, opacity: item.opacity, rows: rows, columns: columns)
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
