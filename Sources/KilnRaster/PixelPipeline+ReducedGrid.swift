extension PixelPipeline {
    /// Evaluates the stages at the samples of rows `rows` of `grid` (band row 0 = the first of
    /// them; see `ReducedGrid`). The same mapping and colour stages as `paint`, reading a large
    /// blur's reduced copy through `source`, at 1/factor² of the positions. `ReducedGrid.enlarge`
    /// then makes the frame's pixels. Each point is computed on its own, so any split into rows
    /// gives the same bytes.
    public func paint(grid: ReducedGrid, rows: Range<Int>, into band: PlanarBand, source: ReducedBlurSampler)
    {
        precondition(
            band.stride >= (grid.columns + 7) & ~7 && band.capacityRows >= rows.count, "band too small")
        withBatch { batch, list in
            for row in rows {
                let offset = (row &- rows.lowerBound) &* band.stride
                let y = SIMD8<Float>(repeating: grid.y(row))
                var j = 0
                while j < grid.columns {
                    let count = min(StageBatch.groups, (grid.columns &- j &+ 7) >> 3)
                    for k in 0..<count {
                        batch.x[k] = grid.x(j &+ 8 &* k)
                        batch.y[k] = y
                    }
                    evaluate(batch, list, count: count, source: source)
                    for k in 0..<count {
                        let p = offset &+ j &+ 8 &* k, c = batch.color + 4 &* k
                        store(c[0], band.r + p)
                        store(c[1], band.g + p)
                        store(c[2], band.b + p)
                        store(c[3], band.a + p)
                    }
                    j &+= 8 &* count
                }
            }
        }
    }

    /// The cell centres of cell rows `cellRows` of `grid` (band row 0 = the first of them), for
    /// its checks (`ReducedGrid.misses`). A centre is evaluated only where the coarse check
    /// (`ReducedGrid.coarseMisses`; `coarse` row b holds coarse row b's) finds more than
    /// `tolerance` in the coarse cells holding the cell or one of its eight neighbours; elsewhere
    /// it is set to its corners' mean, so its cell passes. The evaluated ones are gathered in
    /// groups of 8 of any columns (each lane is computed on its own, so grouping does not change
    /// the values). Cells without a whole coarse cell around them are always evaluated.
    ///
    /// On the seed's warp this evaluates ≈ 41 % of the centres (a coarse cell's own centre
    /// alone, 24 %, left differences of 3; the neighbouring coarse cells in whole, 54 %, gave the
    /// same accuracy as evaluating every centre).
    public func paint(
        centres grid: ReducedGrid, cellRows: Range<Int>, samples: PlanarBand, coarse: PlanarBand,
        tolerance: Float,
        into band: PlanarBand, source: ReducedBlurSampler
    ) {
        precondition(
            band.stride >= (grid.columns + 7) & ~7 && band.capacityRows >= cellRows.count, "band too small")
        let half = Float(grid.factor / 2)
        withBatch { batch, stages in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: grid.cellColumns + 8) { list in
                withUnsafeTemporaryAllocation(of: Float.self, capacity: grid.coarseColumns + 16) {
                    nearBuffer in
                    let near = nearBuffer.baseAddress!
                    for i in cellRows {
                        let offset = (i &- cellRows.lowerBound) &* band.stride
                        let b = i >> 1
                        let top = i &* samples.stride, bottom = top &+ samples.stride
                        // Every centre set to its corners' mean first; those evaluated are overwritten.
                        var j = 0
                        while j < grid.cellColumns {
                            for plane in 0..<4 {
                                let s = samples.plane(plane)
                                let corners =
                                    (load(s + (top &+ j)) + load(s + (top &+ j &+ 1)))
                                    + (load(s + (bottom &+ j)) + load(s + (bottom &+ j &+ 1)))
                                store(corners * 0.25, band.plane(plane) + (offset &+ j))
                            }
                            j &+= 8
                        }
                        // The largest coarse miss per coarse column over the coarse rows of cell rows
                        // i − 1…i + 1; beyond the last whole coarse cell, infinite (always evaluated).
                        let nearRows = max(0, (i - 1) >> 1)..<min(grid.coarseRows, ((i + 1) >> 1) + 1)
                        let wholeColumns = b < grid.coarseRows ? grid.coarseColumns : 0
                        near.update(repeating: .infinity, count: grid.coarseColumns + 9)
                        if wholeColumns > 0 {
                            near.update(repeating: 0, count: wholeColumns)
                            for row in nearRows {
                                let misses = coarse.r + row * coarse.stride
                                var a = 0
                                while a < wholeColumns {
                                    let m = load(misses + a), before = load(near + a)
                                    store(before.replacing(with: m, where: m .> before), near + a)
                                    a &+= 8
                                }
                            }
                            // `update` above wrote the lanes past the last whole column back to infinity.
                            for a in wholeColumns..<(grid.coarseColumns + 9) { near[a] = .infinity }
                        }
                        // Cell j's neighbours j − 1…j + 1 lie in coarse columns (j − 1) / 2…(j + 1) / 2.
                        // Every cell written, those to evaluate kept: no branch to mispredict.
                        var count = 0
                        for j in 0..<grid.cellColumns {
                            let left = near[max(0, j &- 1) >> 1], right = near[(j &+ 1) >> 1]
                            list[count] = Int32(truncatingIfNeeded: j)
                            count &+= Int(unsafeBitCast(max(left, right) > tolerance, to: UInt8.self))
                        }
                        guard count > 0 else { continue }
                        // Groups of 8 cells (the last padded with its last cell), one evaluation each.
                        for extra in count..<((count + 7) & ~7) { list[extra] = list[count - 1] }
                        let y = SIMD8<Float>(repeating: grid.y(i) + half)
                        let x0 = Float(grid.originX)
                        @inline(__always) func cells(_ k: Int) -> SIMD8<Int32> {
                            UnsafeRawPointer(list.baseAddress! + k).loadUnaligned(as: SIMD8<Int32>.self)
                        }
                        var k = 0
                        while k < count {
                            let groups = min(StageBatch.groups, (count &- k &+ 7) >> 3)
                            for group in 0..<groups {
                                batch.x[group] =
                                    SIMD8<Float>(cells(k &+ 8 &* group)) * Float(grid.factor) + x0
                                batch.y[group] = y
                            }
                            evaluate(batch, stages, count: groups, source: source)
                            for group in 0..<groups {
                                let first = k &+ 8 &* group, c = batch.color + 4 &* group
                                let (r, g, b, a) = (c[0], c[1], c[2], c[3])
                                for l in 0..<min(8, count &- first) {
                                    let p = offset &+ Int(list[first &+ l])
                                    band.r[p] = r[l]
                                    band.g[p] = g[l]
                                    band.b[p] = b[l]
                                    band.a[p] = a[l]
                                }
                            }
                            k &+= 8 &* groups
                        }
                    }
                }
            }
        }
    }

    /// After `ReducedGrid.enlarge` wrote frame rows `rows` of `band` (band row 0 = `firstRow`)
    /// over `columns`: evaluates again, pixel by pixel from `source`, the chunks that
    /// `ReducedGrid.markChunks` found the grid may miss (`marks`: row i holds cell row i's chunk
    /// marks in its red plane).
    public func refine(
        _ band: PlanarBand, firstRow: Int, rows: Range<Int>, columns: Range<Int>, grid: ReducedGrid,
        marks: PlanarBand, source: ReducedBlurSampler
    ) {
        let span = band.chunkSpan(columns)
        guard !span.isEmpty, !rows.isEmpty else { return }
        precondition(span.lowerBound >= grid.originX && (span.upperBound - grid.originX) / 8 <= grid.chunks)
        let lane = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) + 0.5
        let firstChunk: Int = (span.lowerBound - grid.originX) / 8
        withBatch { batch, list in
            // The first columns of the marked chunks of a batch.
            withUnsafeTemporaryAllocation(of: Int.self, capacity: StageBatch.groups) { starts in
                for y in rows {
                    let cellRow: Int = grid.cellRow(y).row
                    let chunks: UnsafeMutablePointer<Float> = marks.r + (cellRow * marks.stride + firstChunk)
                    let offset = (y &- firstRow) &* band.stride
                    let py = SIMD8<Float>(repeating: Float(y) + 0.5)
                    // Batches of marked chunks, evaluated together.
                    var count = 0
                    @inline(__always) func flush() {
                        evaluate(batch, list, count: count, source: source)
                        for k in 0..<count {
                            write(
                                starts[k], batch.color + 4 &* k, offset: offset, columns: columns, into: band
                            )
                        }
                        count = 0
                    }
                    forEachMarked(chunks, count: span.count / 8) { c in
                        let x = span.lowerBound &+ 8 &* c
                        starts[count] = x
                        batch.x[count] = lane + Float(x)
                        batch.y[count] = py
                        count &+= 1
                        if count == StageBatch.groups { flush() }
                    }
                    if count > 0 { flush() }
                }
            }
        }
    }

    /// `body(k)` for each k < `count`, in order, whose mark `marks[k]` is not 0, eight marks at
    /// a time: most chunks are unmarked, and a branch per chunk mispredicts around the marked ones.
    /// Within eight, the marked ones are taken from a bit mask lowest first, so the loop runs once
    /// per marked chunk (a test of each lane mispredicted on a quarter of the podcast's render
    /// samples in this function).
    @inline(__always)
    private func forEachMarked(_ marks: UnsafeMutablePointer<Float>, count: Int, _ body: (Int) -> Void) {
        let laneBits = SIMD8<Int32>(1, 2, 4, 8, 16, 32, 64, 128)
        var k = 0
        while k &+ 8 <= count {
            var bits = laneBits.replacing(with: 0, where: load(marks + k) .== SIMD8()).wrappedSum()
            while bits != 0 {
                body(k &+ bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
            k &+= 8
        }
        while k < count {
            if marks[k] != 0 { body(k) }
            k &+= 1
        }
    }

    /// Group `c`'s colour (r, g, b, a) to the eight pixels of `band` from column `x`, those
    /// outside `columns` transparent.
    @inline(__always)
    private func write(
        _ x: Int, _ c: UnsafeMutablePointer<SIMD8<Float>>, offset: Int, columns: Range<Int>,
        into band: PlanarBand
    ) {
        band.storeMasked(c[0], c[1], c[2], c[3], x: x, offset: offset, columns: columns)
    }
}

extension PixelPipeline {
    /// The stages at `batch.x[k]`, `batch.y[k]` for k < `count` into `batch.colour`, stage by
    /// stage across the groups; overwrites the positions. Each lane is computed on its own, so
    /// the grouping does not change a value.
    @inline(__always)
    func evaluate(_ batch: StageBatch, _ list: StageList, count: Int, source: ReducedBlurSampler) {
        if colorReadsPosition { recordPositions(batch, count: count) }
        if movesPixels { mapBack(batch, list, count: count) }
        source.color(
            x: batch.x, y: batch.y, count: count, into: batch.color, scratch: batch.scratch,
            index: batch.index)
        if hasColorStages { applyColors(batch, list, count: count) }
    }
}
