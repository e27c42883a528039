import KilnRaster

/// A layer that needs its neighbours' pixels (a blurred layer) is painted whole into a frame-wide
/// image before the frame's bands are painted, then blurred there; the band pass copies from it.
///
/// The offscreen image covers only the layer's extent grown by the blur's reach, so a blurred
/// card costs its own area, not the frame's. Beyond the frame's edges the blur repeats the edge
/// pixels: content crossing the frame edge continues outward, as it does in the scene.
public final class Offscreen: @unchecked Sendable {
    let layer: any PreparedLayer
    /// Colour stages that come before the blur.
    let colors: ColorMatrix?
    let blur: GaussianBlur
    /// Frame pixels this offscreen covers: the layer's extent grown by the blur's reach.
    let extent: PixelExtent
    /// Set by the renderer for the frame being painted (rows: `extent.rows`, frame-wide columns).
    var image: PlanarBand?
    /// `Canvas.paintsReducedUnderBlur`.
    private let paintsReduced: Bool
    /// `Canvas.enlargesBlurInBands`, and the frame's width (the image's).
    private let enlargesInBands: Bool
    private let frameWidth: Int
    /// Set when the result is sampled at arbitrary positions (a pixel-stage pass reads it): the
    /// renderer then also packs it into `texels`.
    var packsForSampling = false
    var texels: PackedTexels?
    /// Set when the only consumer reads the blur's reduced copy (a `ReducedPipelineLayer`): the
    /// blur then stops before enlarging (`image` keeps the unblurred layer), and the copy is
    /// packed into `texels` and readable through `reduced`. Only for a reduced-only blur.
    var readsReducedCopy = false {
        didSet { precondition(!readsReducedCopy || blur.isReducedOnly, "the blur has no reduced copy alone") }
    }
    var reduced: ReducedBlurSampler?
    /// Colour stages after the blur, set by the item that composites this offscreen: applied to
    /// the image once, as the render's last step, so a result kept from frame to frame keeps them
    /// (a blurred, colour-graded cover is painted, blurred and graded once, not every frame).
    var colorsAfterBlur: ColorMatrix? {
        didSet {
            precondition(colorsAfterBlur == nil || !readsReducedCopy, "a reduced copy is read uncoloured")
        }
    }

    /// `colorsAfterBlur` when the blur applies them to its reduced copy before enlarging it
    /// (`GaussianBlur.blurColumns`): a reduced-only blur whose result is not also sampled (the
    /// packed texels hold it uncoloured).
    private var colorsInEnlargement: ColorMatrix? {
        blur.isReducedOnly && !packsForSampling ? colorsAfterBlur : nil
    }

    /// Set when `image` holds the blur's blurred, coloured reduced copy (from its row and column
    /// 0, border included) rather than the result, which the band pass enlarges band by band as
    /// it composites (`GaussianBlur.enlarge`): a reduced-only blur whose result is only
    /// composited. A full-size image would be written once and read once from memory; a band's
    /// enlargement stays in cache. Decided by what the key holds and by `keepsFullImage`, which
    /// the renderer keeps with the result, so a kept image is read as it was written.
    var compositesReduced: Bool {
        guard enlargesInBands, !keepsFullImage, blur.isReducedOnly, !packsForSampling, !readsReducedCopy,
            !holdsGridValues
        else { return false }
        let size = GaussianBlur.reducedCopySize(
            rowCount: extent.rows.count, columnCount: extent.columns.count)
        return size.rows <= extent.rows.count && size.bandWidth <= frameWidth
    }

    /// Set by the renderer for a result it keeps from frame to frame at full size
    /// (`OffscreenImages.framesBeforeFullImage`): then `compositesReduced` is false.
    var keepsFullImage = false

    /// Whether the renderer must lend this offscreen a packed-texel buffer.
    var needsTexels: Bool { packsForSampling || readsReducedCopy }

    init(layer: any PreparedLayer, colors: ColorMatrix?, blur: GaussianBlur, canvas: Canvas) {
        self.layer = layer
        self.colors = colors
        self.blur = blur
        paintsReduced = canvas.paintsReducedUnderBlur
        enlargesInBands = canvas.enlargesBlurInBands
        frameWidth = canvas.width
        let source = (layer.extent ?? .whole(canvas)).intersection(.whole(canvas))
        extent = source.grown(by: blur.reach, within: canvas)
    }

    /// An offscreen of `extent` exactly, unblurred: the samples of a `ReducedGrid`, whose
    /// "pixels" are grid samples (row i, column j) rather than frame pixels. They are computed
    /// before the bands like any offscreen; the image rows and columns hold them.
    init(samples layer: any PreparedLayer, extent: PixelExtent) {
        self.layer = layer
        colors = nil
        blur = GaussianBlur(radius: 0)
        self.extent = extent
        paintsReduced = false
        enlargesInBands = false
        frameWidth = 0
        holdsGridValues = true
    }

    /// Set for a `ReducedGrid`'s samples or checks, whose columns are not frame columns.
    private var holdsGridValues = false

    /// How wide `image` must be: as wide as the frame for a layer (bands read it by frame
    /// column), only as wide as the extent for grid values (a 4× grid's samples are a quarter
    /// of the frame's width).
    func imageWidth(canvas: Canvas) -> Int {
        holdsGridValues ? max(1, extent.columns.upperBound) : canvas.width
    }

    /// What alone determines this offscreen's result (`image`, `texels` and `reduced` after
    /// `render`) on `canvas`: the layer's content key, the colours and blur, the extent and what
    /// is made for the consumer. nil when the layer has no key, or when the band pass alters
    /// the image. Computed after the consumers have set `readsReducedCopy` and
    /// `packsForSampling`.
    func key(canvas: Canvas) -> OffscreenKey? {
        guard let layerKey = layer.contentKey else { return nil }
        return OffscreenKey(
            layer: layerKey, colors: colors, blurRadius: blur.radius, colorsAfterBlur: colorsAfterBlur,
            extent: extent,
            packsForSampling: packsForSampling, readsReducedCopy: readsReducedCopy, canvas: canvas)
    }

    /// Takes the result of an earlier `render` of an offscreen with the same key, still held in
    /// `image` and `texels`, instead of rendering.
    func reuse(image: PlanarBand?, texels: PackedTexels?, reduced: ReducedBlurSampler?) {
        self.image = image
        self.texels = texels
        self.reduced = reduced
    }

    /// Paints the layer into `image` and blurs it, on `threads` workers.
    func render(
        into image: PlanarBand, texels: PackedTexels?, threads: Int, bandHeight: Int,
        scratch: [OffscreenScratch],
        blurWorkspace: BlurWorkspace
    ) {
        self.image = image
        self.texels = texels
        guard !extent.isEmpty else { return }
        // Packed before the colours after the blur, which only the band pass's copy shows.
        defer {
            pack(threads: threads)
            applyColorsAfterBlur(threads: threads, bandHeight: bandHeight)
        }
        let extent = self.extent, layer = self.layer, blur = self.blur, colors = self.colors
        let top = extent.rows.lowerBound
        if blur.isReducedOnly, !readsReducedCopy, paintsReduced,
            renderFromPaintedReduction(
                into: image, threads: threads, bandHeight: bandHeight, scratch: scratch,
                blurWorkspace: blurWorkspace)
        {
            return
        }
        BandScheduler(height: extent.rows.count, bandHeight: bandHeight, threads: threads).run {
            worker, first, rows in
            let band = image.rows(from: first, count: rows)
            layer.paint(
                into: band, firstRow: top + first, rows: rows, columns: extent.columns,
                pool: scratch[worker].pool)
            colors?.apply(to: band, rows: rows, columns: extent.columns)
        }
        guard !blur.isIdentity else { return }
        let rowCount = extent.rows.count, workspace = blurWorkspace
        blur.prepare(workspace, rowCount: rowCount, columns: extent.columns)
        // Several row parts per worker balance the load; one column strip per worker is what the
        // column pass runs best with (see GaussianBlur).
        let rowParts = max(1, min(threads * 4, rowCount / 16))
        BandScheduler.forEach(rowParts, threads: threads) { worker, part in
            blur.blurRows(
                image, rowCount: rowCount, columns: extent.columns, part: part, of: rowParts, worker: worker,
                workspace: workspace)
        }
        if readsReducedCopy {
            BandScheduler.forEach(threads, threads: threads) { worker, part in
                blur.blurReducedColumns(
                    rowCount: rowCount, columns: extent.columns, part: part, of: threads, worker: worker,
                    workspace: workspace)
            }
            packReducedCopy(threads: threads, workspace: workspace)
            return
        }
        blurColumns(of: image, threads: threads, workspace: workspace)
    }

    /// Phase 2 of the blur: enlarged into `image`, or kept there as its reduced copy
    /// (`compositesReduced`).
    private func blurColumns(of image: PlanarBand, threads: Int, workspace: BlurWorkspace) {
        let rowCount = extent.rows.count, columns = extent.columns, blur = self.blur
        if compositesReduced {
            BandScheduler.forEach(threads, threads: threads) { worker, part in
                blur.blurReducedColumns(
                    rowCount: rowCount, columns: columns, part: part, of: threads, worker: worker,
                    workspace: workspace)
            }
            let copy = blur.reducedCopy(in: workspace, rows: extent.rows, columns: columns)
            let colors = colorsAfterBlur
            let parts = max(1, min(threads * 4, copy.rows / 8))
            BandScheduler.forEach(parts, threads: threads) { _, part in
                let first = copy.rows * part / parts, last = copy.rows * (part + 1) / parts
                guard last > first else { return }
                for (target, source) in zip(image.planes, copy.band.planes) {
                    for i in first..<last {
                        (target + i * image.stride).update(
                            from: source + i * copy.band.stride, count: copy.columns)
                    }
                }
                colors?.apply(
                    to: image.rows(from: first, count: last - first), rows: last - first,
                    columns: 0..<copy.columns)
            }
            return
        }
        let colors = colorsInEnlargement
        BandScheduler.forEach(threads, threads: threads) { worker, part in
            blur.blurColumns(
                image, rowCount: rowCount, columns: columns, part: part, of: threads, worker: worker,
                workspace: workspace, colors: colors)
        }
    }

    /// For a reduced-only blur of a layer that can paint onto another grid (`mapped`): the layer
    /// painted straight onto the blur's reduced copy, which the blur reduces to from the full
    /// image otherwise (GaussianBlur+PaintedReduction.swift), then blurred and enlarged into
    /// `image`. Returns false, having done nothing, when the layer cannot.
    private func renderFromPaintedReduction(
        into image: PlanarBand, threads: Int, bandHeight: Int, scratch: [OffscreenScratch],
        blurWorkspace workspace: BlurWorkspace
    ) -> Bool {
        let rowCount = extent.rows.count, columns = extent.columns, blur = self.blur, colors = self.colors
        blur.prepare(workspace, rowCount: rowCount, columns: columns)
        let target = blur.paintedInput(in: workspace, rows: extent.rows, columns: columns)
        guard
            let small = layer.mapped(
                by: target.gridFromFrame, gridWidth: target.columns, gridHeight: target.rows)
        else { return false }
        let inner = target.innerColumns, firstInner = target.innerRows.lowerBound
        BandScheduler(height: target.innerRows.count, bandHeight: bandHeight, threads: threads).run {
            worker, first, rows in
            let band = target.band.rows(from: firstInner + first, count: rows)
            small.paint(
                into: band, firstRow: firstInner + first, rows: rows, columns: inner,
                pool: scratch[worker].pool)
            colors?.apply(to: band, rows: rows, columns: inner)
        }
        paintEdges(into: target.edges, bandHeight: bandHeight, pool: scratch[0].pool)
        blur.reducePaintedBorder(rowCount: rowCount, columns: columns, workspace: workspace)
        let rowParts = max(1, min(threads * 4, target.rows / 16))
        BandScheduler.forEach(rowParts, threads: threads) { worker, part in
            blur.blurPaintedRows(
                rowCount: rowCount, columns: columns, part: part, of: rowParts, worker: worker,
                workspace: workspace)
        }
        blurColumns(of: image, threads: threads, workspace: workspace)
        return true
    }

    /// The extent's four edge lines, painted at full size with the colours before the blur,
    /// into `edges` (see `ReducedPaintTarget.edges`): one row or column each, on this thread.
    private func paintEdges(into edges: PlanarBand, bandHeight: Int, pool: BandPool) {
        let rows = extent.rows, columns = extent.columns, layer = self.layer, colors = self.colors
        pool.withBand { scratch in
            let height = min(bandHeight, scratch.capacityRows)
            for (line, y) in [(0, rows.lowerBound), (1, rows.upperBound - 1)] {
                let row = scratch.rows(from: 0, count: 1)
                layer.paint(into: row, firstRow: y, rows: 1, columns: columns, pool: pool)
                colors?.apply(to: row, rows: 1, columns: columns)
                for (target, source) in zip(edges.planes, row.planes) {
                    (target + line * edges.stride).update(
                        from: source + columns.lowerBound, count: columns.count)
                }
            }
            for (line, x) in [(2, columns.lowerBound), (3, columns.upperBound - 1)] {
                var y = rows.lowerBound
                while y < rows.upperBound {
                    let count = min(height, rows.upperBound - y)
                    layer.paint(into: scratch, firstRow: y, rows: count, columns: x..<(x + 1), pool: pool)
                    colors?.apply(to: scratch, rows: count, columns: x..<(x + 1))
                    for (target, source) in zip(edges.planes, scratch.planes) {
                        let start = target + line * edges.stride + (y - rows.lowerBound)
                        for k in 0..<count { start[k] = source[x + k * scratch.stride] }
                    }
                    y += count
                }
            }
        }
    }

    /// The colour stages after the blur, on the rendered image, bands split over the workers.
    private func applyColorsAfterBlur(threads: Int, bandHeight: Int) {
        guard let colorsAfterBlur, colorsInEnlargement == nil, !compositesReduced, let image else { return }
        let columns = extent.columns
        BandScheduler(height: extent.rows.count, bandHeight: bandHeight, threads: threads).run {
            _, first, rows in
            colorsAfterBlur.apply(to: image.rows(from: first, count: rows), rows: rows, columns: columns)
        }
    }

    /// Packs the result for sampling, rows split over the workers.
    private func pack(threads: Int) {
        guard packsForSampling, let texels, let image, !extent.isEmpty else { return }
        let extent = self.extent
        texels.prepare(width: extent.columns.count, height: extent.rows.count)
        let parts = max(1, min(threads * 4, extent.rows.count / 8))
        BandScheduler.forEach(parts, threads: threads) { _, part in
            let first = extent.rows.count * part / parts, last = extent.rows.count * (part + 1) / parts
            guard last > first else { return }
            texels.pack(
                from: image, imageRow: first, regionRow: first, rows: last - first,
                firstColumn: extent.columns.lowerBound)
        }
    }

    /// Packs the blur's reduced copy for sampling (it stays in the blur workspace only until the
    /// next offscreen's blur), rows split over the workers.
    private func packReducedCopy(threads: Int, workspace: BlurWorkspace) {
        guard let texels else { preconditionFailure("no texels lent for the reduced copy") }
        let copy = blur.reducedCopy(in: workspace, rows: extent.rows, columns: extent.columns)
        texels.prepare(width: copy.columns, height: copy.rows)
        let parts = max(1, min(threads * 4, copy.rows / 8))
        BandScheduler.forEach(parts, threads: threads) { _, part in
            let first = copy.rows * part / parts, last = copy.rows * (part + 1) / parts
            guard last > first else { return }
            texels.pack(
                from: copy.band, imageRow: first, regionRow: first, rows: last - first, firstColumn: 0)
        }
        reduced = ReducedBlurSampler(copy, texels: texels)
    }

    /// Composites frame rows `firstRow..<firstRow+rows` of the blurred (and, after the blur,
    /// coloured) layer onto `band` within `columns`, straight from the offscreen image: no copy
    /// into a scratch band.
    func composite(
        onto band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, opacity: Float, pool: BandPool
    ) {
        guard let meeting = meeting(firstRow: firstRow, rows: rows, columns: columns) else { return }
        withSource(meeting, pool: pool) { source, top, count in
            Compositing.sourceOver(
                source, onto: band.rows(from: top - firstRow, count: count), opacity: opacity, rows: count,
                columns: meeting.columns)
        }
    }

    /// `band` filled with `color` within `columns`, then this offscreen composited over it, as
    /// a fill followed by `composite` would leave it, in one pass where the two meet.
    func composite(
        onto band: PlanarBand, over color: PremultipliedColor, firstRow: Int, rows: Int, columns: Range<Int>,
        opacity: Float, pool: BandPool
    ) {
        guard let meeting = meeting(firstRow: firstRow, rows: rows, columns: columns) else {
            return band.fill(color, rows: rows, columns: columns)
        }
        let top = meeting.top, bottom = top + meeting.rows
        if top > firstRow { band.fill(color, rows: top - firstRow, columns: columns) }
        if bottom < firstRow + rows {
            band.rows(from: bottom - firstRow, count: firstRow + rows - bottom).fill(
                color, rows: firstRow + rows - bottom, columns: columns)
        }
        withSource(meeting, pool: pool) { source, top, count in
            Compositing.sourceOver(
                source, overColor: color, into: band.rows(from: top - firstRow, count: count),
                opacity: opacity, rows: count, columns: columns, window: meeting.columns)
        }
    }

    /// Calls `body(source, top, count)` for the rows of `meeting`: frame rows top..<top+count
    /// of the result are `source`'s rows from 0. The image's rows themselves, or, when it holds
    /// the reduced copy (`compositesReduced`), a band of the pool they are enlarged into, a
    /// pool band's rows at a time.
    private func withSource(
        _ meeting: (top: Int, rows: Int, columns: Range<Int>, source: PlanarBand), pool: BandPool,
        body: (PlanarBand, Int, Int) -> Void
    ) {
        guard compositesReduced, let image else { return body(meeting.source, meeting.top, meeting.rows) }
        let need = GaussianBlur.enlargementScratch(columns: meeting.columns.count)
        pool.withBand { enlarged in
            func run(scratch: PlanarBand) {
                var top = meeting.top
                while top < meeting.top + meeting.rows {
                    let count = min(pool.rows, meeting.top + meeting.rows - top)
                    let first = top - extent.rows.lowerBound
                    blur.enlarge(
                        copy: image, regionRowCount: extent.rows.count, regionColumns: extent.columns,
                        rows: first..<(first + count), columns: meeting.columns, into: enlarged,
                        scratch: scratch)
                    body(enlarged, top, count)
                    top += count
                }
            }
            if pool.rows * enlarged.stride >= need {
                pool.withBand { run(scratch: $0) }
            } else {
                // A band pool of one or two rows (not a renderer's): scratch of its own.
                run(scratch: PlanarBand(width: need, rows: 1))
            }
        }
    }

    /// Where frame rows `firstRow..<firstRow+rows` and `columns` meet the extent: the first frame
    /// row, the row count, the columns, and the image's rows there; nil when they do not meet.
    private func meeting(firstRow: Int, rows: Int, columns: Range<Int>) -> (
        top: Int, rows: Int, columns: Range<Int>, source: PlanarBand
    )? {
        guard let image, !readsReducedCopy else {
            preconditionFailure("offscreen layer painted before it was rendered, or read as its reduced copy")
        }
        let span = columns.clamped(to: extent.columns)
        let top = max(firstRow, extent.rows.lowerBound), bottom = min(firstRow + rows, extent.rows.upperBound)
        guard !span.isEmpty, top < bottom else { return nil }
        return (top, bottom - top, span, image.rows(from: top - extent.rows.lowerBound, count: bottom - top))
    }
}

extension LayerStack {
    /// Paints and blurs the offscreen layers inside, innermost first, so the stack's bands can
    /// be painted. `SceneRenderer` does this each frame with reused images; this form is for
    /// painting a stack on its own (tests, single layers).
    public func renderOffscreens(canvas: Canvas, threads: Int = 1) {
        renderOffscreens(
            canvas: canvas, threads: threads, images: OffscreenImages(threads: max(threads, 1)),
            scratch: (0..<max(threads, 1)).map { _ in OffscreenScratch(canvas: canvas) })
    }

    /// The offscreens of this frame, innermost first.
    var offscreens: [Offscreen] {
        var list: [Offscreen] = []
        collectOffscreens(into: &list)
        return list
    }

    /// Returns how many offscreens took the result kept in `images` instead of rendering.
    @discardableResult
    func renderOffscreens(
        canvas: Canvas, threads: Int, images: OffscreenImages, scratch: [OffscreenScratch],
        offscreens: [Offscreen]? = nil
    ) -> Int {
        var taken = 0
        let offscreens = offscreens ?? self.offscreens
        for (index, offscreen) in offscreens.enumerated() {
            let texels = offscreen.needsTexels ? images.texels(index) : nil
            let key = offscreen.key(canvas: canvas)
            let kept = key.flatMap { images.kept(index, for: $0) }
            // A result the band pass has enlarged for long enough is rendered again, at full size.
            let renewed =
                kept.map { $0.inBands && $0.frames >= OffscreenImages.framesBeforeFullImage } ?? false
            offscreen.keepsFullImage = renewed || kept?.inBands == false
            if let kept, !renewed {
                images.served(index)
                // A reduced copy is read from its packed copy alone: the image is not needed
                // while the result is kept.
                if offscreen.readsReducedCopy {
                    images.releaseImage(index)
                    offscreen.reuse(image: nil, texels: texels, reduced: kept.reduced)
                } else {
                    offscreen.reuse(
                        image: images.image(
                            index, width: offscreen.imageWidth(canvas: canvas),
                            rows: offscreen.extent.rows.count, limit: canvas.height),
                        texels: texels, reduced: kept.reduced)
                }
                taken += 1
                continue
            }
            let image = images.image(
                index, width: offscreen.imageWidth(canvas: canvas), rows: offscreen.extent.rows.count,
                limit: canvas.height)
            offscreen.render(
                into: image, texels: texels, threads: threads, bandHeight: canvas.bandHeight,
                scratch: scratch, blurWorkspace: images.blurWorkspace)
            images.keep(index, key: key, reduced: offscreen.reduced, inBands: offscreen.compositesReduced)
        }
        return taken
    }
}

extension PlanarBand {
    /// r, g, b, a.
    fileprivate var planes: [UnsafeMutablePointer<Float>] { [r, g, b, a] }
}
