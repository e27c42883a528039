import KilnModel
import KilnRaster

/// Bands borrowed for intermediate results (a layer before compositing, a group's children, a
/// clip mask). One per worker; it grows to the deepest nesting on the first frame and is reused
/// after, so steady-state rendering allocates nothing.
public final class BandPool: @unchecked Sendable {
    public let width: Int
    public let rows: Int
    private var bands: [PlanarBand] = []
    private var depth = 0

    public init(width: Int, rows: Int) {
        self.width = width
        self.rows = rows
    }

    /// Lends a band for the duration of `body`.
    public func withBand<R>(_ body: (PlanarBand) -> R) -> R {
        if depth == bands.count { bands.append(PlanarBand(width: width, rows: rows)) }
        let band = bands[depth]
        depth += 1
        defer { depth -= 1 }
        return body(band)
    }
}

/// One layer prepared for a frame: how to paint it, its opacity and its composed colour effects.
public struct PreparedItem: Sendable {
    public let layer: any PreparedLayer
    public let opacity: Float
    /// The layer's colour effects composed into one matrix; nil when it has none.
    public let colors: ColorMatrix?
    /// Set when the layer is blurred: it is painted and blurred before the bands, and the band
    /// pass copies it from there.
    public let offscreen: Offscreen?

    /// The frame pixels the item can touch; nil when any. Computed once here because every band
    /// of the frame asks, for every item of every stack.
    let extent: PixelExtent?

    public init(layer: any PreparedLayer, opacity: Float, colors: ColorMatrix?, offscreen: Offscreen? = nil) {
        self.layer = layer
        self.opacity = opacity
        self.colors = colors
        self.offscreen = offscreen
        // The band pass applies these colours to the offscreen's image in place.
        if colors != nil { offscreen?.coloursImageInPlace = true }
        extent = offscreen.map(\.extent) ?? layer.extent
    }
}

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
        if first.opacity == 1 && first.colors == nil && first.offscreen == nil {
            first.layer.paint(into: band, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
        } else {
            band.fill(.transparent, rows: rows, columns: columns)
            composite(first, onto: band, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
        }
        for item in items.dropFirst() {
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
            offscreen.composite(
                onto: band, firstRow: firstRow, rows: rows, columns: window, colors: item.colors,
                opacity: item.opacity)
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
