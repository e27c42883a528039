import KilnRaster

/// A layer drawn through pixel stages whose source is a large blur, evaluated on a reduced grid:
/// the seed's podcast background (a cover blurred with radius 30, then domain-warped).
///
/// After a large blur the picture holds no detail finer than the blur, and a smooth mapping
/// keeps it smooth, if squeezed. Evaluating the stages at every pixel — two noise lookups and a
/// bilinear tap each, ≈ 28 ns·core/px here — then computes much the same surface 16 times over.
/// Instead the stages run once per `ReducedGrid` sample (every 2 or 4 pixels per axis, from the
/// blur's σ), reading the blur's reduced copy directly (the blur is never enlarged), and each
/// band enlarges the samples bilinearly with fixed weights. Where the mapping squeezes or bends
/// the picture more than the grid follows (the seed's domain warp squeezes up to ≈ 33×), the
/// grid's own check finds it: each cell's centre is evaluated too (where a coarser check on the
/// samples alone cannot clear it), and the chunks around cells whose centre is off their
/// corners' mean by more than `tolerance` are evaluated again pixel by pixel. `make` returns nil
/// where this does not apply, and the full-resolution `PipelineLayer` is used.
struct ReducedPipelineLayer: PreparedLayer {
    /// The blur, rendered before the bands and read as its reduced copy.
    let source: Offscreen
    /// The grid's samples, computed after `source` and before the bands.
    let samples: Offscreen
    /// The grid's checks, computed once a frame after `samples`, before the bands, in order: each
    /// coarse cell's miss (`ReducedGrid.coarseMisses`), the cell centres where those need them
    /// (`PixelPipeline.paint(centres:…)`), each cell's miss (`ReducedGrid.misses`), then each
    /// chunk's mark (`markChunks`); nil without refinement.
    let checks: Checks?
    struct Checks {
        let coarse: Offscreen
        let centres: Offscreen
        let misses: Offscreen
        let marks: Offscreen
    }
    let grid: ReducedGrid
    /// Set when cells the grid may miss are evaluated again pixel by pixel (`PixelPipeline.refine`).
    let pipeline: PixelPipeline?
    let extent: PixelExtent?

    /// The reduced form of stages `pipeline` over `blurred`, or nil when it would not be
    /// faithful: a blur too small or with a full-resolution part (below σ = 16), stages that are
    /// not smooth (ripple, gradient map) or have detail finer than half a grid cell (a warp's
    /// noise texels under 2 frame pixels for the 4× grid: corners and centres together sample the
    /// cell every half cell, and finer detail would look like noise to the check), transparent
    /// edges (their one-pixel fade is finer than any grid), or a frame narrower than the grid.
    static func make(
        blurred: Offscreen, pipeline: PixelPipeline, edges: PlanarSampler.Edges, frameFromLocal: Affine2D,
        canvas: Canvas
    ) -> ReducedPipelineLayer? {
        guard edges == .clamp, blurred.blur.isReducedOnly, !blurred.extent.isEmpty,
            let detail = pipeline.featureSize(frameFromLocal: frameFromLocal)
        else { return nil }
        let factor: Int, refines: Bool
        switch canvas.reducedEvaluation {
        case .off: return nil
        case .whenSafe:
            guard let safe = ReducedGrid.factor(blurRadius: blurred.blur.radius), 2 * detail >= Double(safe)
            else {
                return nil
            }
            (factor, refines) = (safe, true)
        case .forced(let forced): (factor, refines) = (forced, false)
        }
        // Clamped sampling keeps the layer's area (as `PipelineLayer`).
        let extent = blurred.extent
        let grid = ReducedGrid(factor: factor, rows: extent.rows, columns: extent.columns)
        guard grid.columns <= canvas.width else { return nil }
        blurred.readsReducedCopy = true
        // The coarse checks read 16 samples at a time, up to 18 past a row's last sample.
        let samples = Offscreen(
            samples: GridEvaluation(source: blurred, pipeline: pipeline, grid: grid),
            extent: PixelExtent(rows: 0..<grid.rows, columns: 0..<(grid.columns + 24)))
        var checks: Checks?
        if refines {
            let coarse = Offscreen(
                samples: CoarseMisses(samples: samples, grid: grid),
                extent: PixelExtent(
                    rows: 0..<max(1, grid.coarseRows), columns: 0..<max(1, grid.coarseColumns)))
            let centres = Offscreen(
                samples: CentreEvaluation(
                    source: blurred, pipeline: pipeline, grid: grid, samples: samples, coarse: coarse),
                extent: PixelExtent(rows: 0..<grid.cellRows, columns: 0..<grid.cellColumns))
            let misses = Offscreen(
                samples: CellMisses(samples: samples, centres: centres, grid: grid),
                extent: PixelExtent(rows: 0..<grid.cellRows, columns: 0..<grid.cellColumns))
            let marks = Offscreen(
                samples: ChunkMarks(misses: misses, grid: grid),
                extent: PixelExtent(rows: 0..<grid.cellRows, columns: 0..<grid.chunks))
            checks = Checks(coarse: coarse, centres: centres, misses: misses, marks: marks)
        }
        return ReducedPipelineLayer(
            source: blurred, samples: samples, checks: checks, grid: grid, pipeline: refines ? pipeline : nil,
            extent: extent)
    }

    /// How far (premultiplied, 0…1) a cell's centre may be from its corners' mean before its
    /// pixels are evaluated one by one: one code value of 8-bit output. Measured on the seed's
    /// warp (`ReducedEvaluationTests`, kiln-bench): with 1, largest difference from full
    /// resolution 2 and 11.5 % of the chunks evaluated again; with 0.5, 1 and 30 %; with 2,
    /// differences up to 5. (Those with the cells above and below a chunk's counting at any miss;
    /// counted only past twice the tolerance, as `ReducedGrid.markChunks` now does, the largest
    /// difference is 3, and the podcast's cover evaluates 22 % fewer chunks again.)
    static let tolerance: Float = 1 / 255

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        guard let image = samples.image, let extent else {
            band.fill(.transparent, rows: rows, columns: columns)
            return
        }
        let inside = columns.clamped(to: extent.columns)
        let top = max(firstRow, extent.rows.lowerBound), bottom = min(firstRow + rows, extent.rows.upperBound)
        // Rows and columns outside the layer are transparent; the enlargement writes the rest.
        if inside != columns || top != firstRow || bottom != firstRow + rows {
            band.fill(.transparent, rows: rows, columns: columns)
        }
        guard !inside.isEmpty, top < bottom else { return }
        pool.withBand { scratch in
            grid.enlarge(
                image, into: band, firstRow: firstRow, rows: top..<bottom, columns: inside, scratch: scratch)
            guard let pipeline, let reduced = source.reduced, let marks = checks?.marks.image else { return }
            pipeline.refine(
                band, firstRow: firstRow, rows: top..<bottom, columns: inside, grid: grid, marks: marks,
                source: reduced)
        }
    }

    func collectOffscreens(into list: inout [Offscreen]) {
        source.layer.collectOffscreens(into: &list)
        list.append(source)
        list.append(samples)
        if let checks {
            list.append(checks.coarse)
            list.append(checks.centres)
            list.append(checks.misses)
            list.append(checks.marks)
        }
    }
}

/// Each coarse cell's miss (`ReducedGrid.coarseMisses`): row b of what it paints is coarse row
/// b's, in the red plane.
private struct CoarseMisses: PreparedLayer {
    let samples: Offscreen
    let grid: ReducedGrid

    var extent: PixelExtent? {
        PixelExtent(rows: 0..<max(1, grid.coarseRows), columns: 0..<max(1, grid.coarseColumns))
    }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        guard let image = samples.image else { preconditionFailure("checks made before the samples") }
        for b in firstRow..<min(firstRow + rows, grid.coarseRows) {
            grid.coarseMisses(image, coarseRow: b, into: band.r + (b - firstRow) * band.stride)
        }
    }
}

/// The cell centres the checks need (`PixelPipeline.paint(centres:…)`): row i of what it paints
/// is cell row i's.
private struct CentreEvaluation: PreparedLayer {
    let source: Offscreen
    let pipeline: PixelPipeline
    let grid: ReducedGrid
    let samples: Offscreen
    let coarse: Offscreen

    var extent: PixelExtent? { PixelExtent(rows: 0..<grid.cellRows, columns: 0..<grid.cellColumns) }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        guard let reduced = source.reduced, let image = samples.image, let coarse = coarse.image else {
            preconditionFailure("centres evaluated before the samples")
        }
        pipeline.paint(
            centres: grid, cellRows: firstRow..<(firstRow + rows), samples: image, coarse: coarse,
            tolerance: ReducedPipelineLayer.tolerance, into: band, source: reduced)
    }
}

/// Each cell's miss (`ReducedGrid.misses`): row i of what it paints is cell row i's, in the red
/// plane.
private struct CellMisses: PreparedLayer {
    let samples: Offscreen
    let centres: Offscreen
    let grid: ReducedGrid

    var extent: PixelExtent? { PixelExtent(rows: 0..<grid.cellRows, columns: 0..<grid.cellColumns) }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        guard let image = samples.image, let centres = centres.image else {
            preconditionFailure("checks made before the samples")
        }
        for i in firstRow..<(firstRow + rows) {
            grid.misses(image, centres: centres, cellRow: i, into: band.r + (i - firstRow) * band.stride)
        }
    }
}

/// Each chunk's mark (`ReducedGrid.markChunks`): row i of what it paints is cell row i's, in the
/// red plane.
private struct ChunkMarks: PreparedLayer {
    let misses: Offscreen
    let grid: ReducedGrid

    var extent: PixelExtent? { PixelExtent(rows: 0..<grid.cellRows, columns: 0..<grid.chunks) }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        guard let image = misses.image else { preconditionFailure("marks made before the misses") }
        pool.withBand { scratch in
            for i in firstRow..<(firstRow + rows) {
                grid.markChunks(
                    cellRow: i, misses: { image.r + $0 * image.stride },
                    tolerance: ReducedPipelineLayer.tolerance,
                    cells: scratch.r, chunks: band.r + (i - firstRow) * band.stride)
            }
        }
    }
}

/// The stages at the grid's samples: what the `samples` offscreen paints, its rows and columns
/// being the grid's.
private struct GridEvaluation: PreparedLayer {
    let source: Offscreen
    let pipeline: PixelPipeline
    let grid: ReducedGrid

    var extent: PixelExtent? { PixelExtent(rows: 0..<grid.rows, columns: 0..<grid.columns) }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        guard let reduced = source.reduced else { preconditionFailure("grid evaluated before its blur") }
        pipeline.paint(grid: grid, rows: firstRow..<(firstRow + rows), into: band, source: reduced)
    }
}
