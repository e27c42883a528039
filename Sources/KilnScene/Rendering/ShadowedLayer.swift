import KilnRaster

/// One shadow of a layer for one frame, in frame pixels.
struct ShadowCast: Sendable, Equatable {
    /// Premultiplied.
    let color: SIMD4<Float>
    /// The blur's standard deviation.
    let radius: Double
    let offset: SIMD2<Double>
    let inner: Bool
}

/// A layer with its shadows: each shadow is an `Offscreen` of the layer's tinted, shifted alpha
/// (`ShadowSilhouette`), blurred there before the bands like any blurred layer; the band pass
/// composites the drop shadows beneath the layer and the inner ones atop it (Porter–Duff
/// source-atop: inside its alpha, which they leave as it was).
struct ShadowedLayer: PreparedLayer {
    let layer: any PreparedLayer
    /// Colours of the layer, applied before its shadows are taken from it.
    let colors: ColorMatrix?
    /// Drawn beneath the layer, bottom first.
    let below: [Offscreen]
    /// Drawn atop the layer (inside its alpha, keeping it), bottom first.
    let inside: [Offscreen]
    let extent: PixelExtent?

    init(layer: any PreparedLayer, colors: ColorMatrix?, casts: [ShadowCast], canvas: Canvas) {
        self.layer = layer
        self.colors = colors
        // The first shadow written is drawn on top.
        let offscreens = casts.reversed().map { cast in
            (
                cast.inner,
                Offscreen(
                    layer: ShadowSilhouette(layer: layer, colors: colors, cast: cast, canvas: canvas),
                    colors: nil, blur: GaussianBlur(radius: cast.radius), canvas: canvas)
            )
        }
        below = offscreens.filter { !$0.0 }.map(\.1)
        inside = offscreens.filter { $0.0 }.map(\.1)
        // Inner shadows stay inside the layer; drop shadows reach as far as their blur.
        var union = layer.extent
        for offscreen in below { union = union?.union(offscreen.extent) }
        extent = union
    }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        band.fill(.transparent, rows: rows, columns: columns)
        compositeAll(onto: band, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
    }

    /// At full opacity the layer and its shadows composite one after another onto the target,
    /// which is what compositing them together gives.
    func paintOver(
        into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, opacity: Float, pool: BandPool
    ) -> Bool {
        guard opacity == 1 else { return false }
        compositeAll(onto: band, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
        return true
    }

    private func compositeAll(
        onto band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool
    ) {
        for shadow in below {
            shadow.composite(
                onto: band, firstRow: firstRow, rows: rows, columns: columns, opacity: 1, pool: pool)
        }
        var window = columns
        if let extent = layer.extent {
            guard extent.rows.overlaps(firstRow..<(firstRow + rows)) else { return }
            window = columns.clamped(to: extent.columns)
            guard !window.isEmpty else { return }
        }
        if inside.isEmpty, colors == nil,
            layer.paintOver(
                into: band, firstRow: firstRow, rows: rows, columns: window, opacity: 1, pool: pool)
        {
            return
        }
        pool.withBand { painted in
            layer.paint(into: painted, firstRow: firstRow, rows: rows, columns: window, pool: pool)
            colors?.apply(to: painted, rows: rows, columns: window)
            if !inside.isEmpty {
                pool.withBand { shadow in
                    for offscreen in inside {
                        shadow.fill(.transparent, rows: rows, columns: window)
                        offscreen.composite(
                            onto: shadow, firstRow: firstRow, rows: rows, columns: window, opacity: 1,
                            pool: pool)
                        Compositing.sourceAtop(shadow, onto: painted, rows: rows, columns: window)
                    }
                }
            }
            Compositing.sourceOver(painted, onto: band, opacity: 1, rows: rows, columns: window)
        }
    }

    func collectOffscreens(into list: inout [Offscreen]) {
        // The layer's own offscreens once: every shadow paints the layer from them.
        layer.collectOffscreens(into: &list)
        list += below
        list += inside
    }
}

/// What a shadow's offscreen blurs: the layer's alpha (its coverage for an inner shadow's
/// complement, 1 − alpha) shifted by the shadow's offset, times the shadow's colour. A
/// fractional offset is a bilinear shift, so a shadow glides with an animated offset, and a
/// whole one costs a copy. The layer is painted one row more than asked (the row above) when
/// the vertical offset has a fraction.
struct ShadowSilhouette: PreparedLayer {
    let layer: any PreparedLayer
    let colors: ColorMatrix?
    let cast: ShadowCast
    let extent: PixelExtent?
    private let frameWidth: Int
    private let frameHeight: Int
    /// The offset's whole pixels and fraction (0 ≤ fraction < 1) per axis.
    private let whole: SIMD2<Int>
    private let fraction: SIMD2<Float>

    init(layer: any PreparedLayer, colors: ColorMatrix?, cast: ShadowCast, canvas: Canvas) {
        self.layer = layer
        self.colors = colors
        self.cast = cast
        frameWidth = canvas.width
        frameHeight = canvas.height
        let floor = cast.offset.rounded(.down)
        whole = SIMD2(SaturatingConversion.int(floor.x, .down), SaturatingConversion.int(floor.y, .down))
        fraction = SIMD2<Float>(cast.offset - floor)
        guard let source = layer.extent, !source.isEmpty else {
            extent = layer.extent
            return
        }
        // Where the shifted alpha lands, a pixel more where a fraction spreads it.
        let columns = (source.columns.lowerBound &+ whole.x)..<(source.columns.upperBound &+ whole.x &+ 1)
        let rows = (source.rows.lowerBound &+ whole.y)..<(source.rows.upperBound &+ whole.y &+ 1)
        let shifted = PixelExtent(rows: rows, columns: columns).intersection(.whole(canvas))
        // An inner shadow's complement is 1 over the whole layer, wherever its shift lands.
        extent = cast.inner ? shifted.union(source) : shifted
    }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        guard !columns.isEmpty, rows > 0 else { return }
        let extraRow = fraction.y > 0 ? 1 : 0
        // Frame rows of the layer read: target row firstRow + k reads sourceTop + k (weight
        // fraction.y) and sourceTop + k + 1 (the rest); without a fraction, sourceTop + k alone.
        let sourceTop = firstRow &- whole.y &- extraRow
        let sourceColumns =
            (columns.lowerBound &- whole.x &- 1)..<(columns.upperBound &- whole.x)
        let readable = sourceColumns.clamped(to: 0..<frameWidth)
        pool.withBand { first in
            pool.withBand { second in
                let count = rows + extraRow
                let inFirst = min(count, first.capacityRows)
                paintSource(into: first, top: sourceTop, rows: inFirst, columns: readable, pool: pool)
                if count > inFirst {
                    paintSource(
                        into: second, top: sourceTop + inFirst, rows: count - inFirst, columns: readable,
                        pool: pool)
                }
                func alphaRow(_ k: Int) -> UnsafeMutablePointer<Float> {
                    k < inFirst ? first.a + k * first.stride : second.a + (k - inFirst) * second.stride
                }
                for k in 0..<rows {
                    shiftRow(
                        upper: alphaRow(k), lower: alphaRow(k + extraRow), readable: readable,
                        into: band, row: k, columns: columns)
                }
            }
        }
    }

    /// Frame rows `top..<top+rows` of the layer, coloured, into `band` within `columns`; rows
    /// outside the frame transparent.
    private func paintSource(
        into band: PlanarBand, top: Int, rows: Int, columns: Range<Int>, pool: BandPool
    ) {
        guard !columns.isEmpty else { return }
        let low = max(top, 0), high = min(top + rows, frameHeight)
        guard low < high else {
            band.fill(.transparent, rows: rows, columns: columns)
            return
        }
        let inside = low..<high
        if inside.lowerBound > top {
            band.fill(.transparent, rows: inside.lowerBound - top, columns: columns)
        }
        let view = band.rows(from: inside.lowerBound - top, count: inside.count)
        layer.paint(into: view, firstRow: inside.lowerBound, rows: inside.count, columns: columns, pool: pool)
        colors?.apply(to: view, rows: inside.count, columns: columns)
        if inside.upperBound < top + rows {
            band.rows(from: inside.upperBound - top, count: top + rows - inside.upperBound).fill(
                .transparent, rows: top + rows - inside.upperBound, columns: columns)
        }
    }

    /// One target row: the alpha `upper` (weight fraction.y) and `lower` rows shifted by the
    /// offset, bilinearly, times the colour. Source columns outside `readable` are transparent.
    private func shiftRow(
        upper: UnsafeMutablePointer<Float>, lower: UnsafeMutablePointer<Float>, readable: Range<Int>,
        into band: PlanarBand, row: Int, columns: Range<Int>
    ) {
        let fx = fraction.x, fy = fraction.y
        let w00 = fy * fx, w01 = fy * (1 - fx), w10 = (1 - fy) * fx, w11 = (1 - fy) * (1 - fx)
        let color = cast.color, inner = cast.inner
        let base = row * band.stride
        let (r, g, b, a) = (band.r + base, band.g + base, band.b + base, band.a + base)
        @inline(__always) func write(_ x: Int, _ coverage: Float) {
            let v = inner ? 1 - coverage : coverage
            r[x] = color.x * v
            g[x] = color.y * v
            b[x] = color.z * v
            a[x] = color.w * v
        }
        // Target column x reads source columns x − whole.x − 1 (weight fx) and x − whole.x.
        let low = max(readable.lowerBound &+ whole.x &+ 1, columns.lowerBound)
        let high = min(readable.upperBound &+ whole.x, columns.upperBound)
        let fast = low < high ? low..<high : columns.upperBound..<columns.upperBound
        func at(_ p: UnsafeMutablePointer<Float>, _ c: Int) -> Float { readable.contains(c) ? p[c] : 0 }
        func edge(_ range: Range<Int>) {
            for x in range {
                let s = x &- whole.x
                write(
                    x,
                    w00 * at(upper, s - 1) + w01 * at(upper, s) + w10 * at(lower, s - 1) + w11 * at(lower, s))
            }
        }
        edge(columns.lowerBound..<fast.lowerBound)
        edge(fast.upperBound..<columns.upperBound)
        let shift = whole.x
        for x in fast {
            let s = x &- shift
            write(x, w00 * upper[s - 1] + w01 * upper[s] + w10 * lower[s - 1] + w11 * lower[s])
        }
    }
}
