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
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: max(stages.count, 1)) { extras in
            for row in rows {
                let offset = (row &- rows.lowerBound) &* band.stride
                let y = SIMD8<Float>(repeating: grid.y(row))
                var j = 0
                while j < grid.columns {
                    let (r, g, b, a) = evaluate(x: grid.x(j), y: y, source: source, extras: extras)
                    let p = offset &+ j
                    store(r, band.r + p)
                    store(g, band.g + p)
                    store(b, band.b + p)
                    store(a, band.a + p)
                    j &+= 8
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
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: max(stages.count, 1)) { extras in
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
                        var count = 0
                        for j in 0..<grid.cellColumns {
                            let left = near[max(0, j - 1) >> 1], right = near[(j + 1) >> 1]
                            if max(left, right) > tolerance {
                                list[count] = Int32(j)
                                count += 1
                            }
                        }
                        guard count > 0 else { continue }
                        // Groups of 8 cells (the last padded with its last cell), one evaluation each.
                        for extra in count..<((count + 7) & ~7) { list[extra] = list[count - 1] }
                        let y = SIMD8<Float>(repeating: grid.y(i) + half)
                        let x0 = Float(grid.originX)
                        var k = 0
                        while k < count {
                            let cells = SIMD8<Int32>(
                                list[k], list[k + 1], list[k + 2], list[k + 3], list[k + 4], list[k + 5],
                                list[k + 6],
                                list[k + 7])
                            let x = SIMD8<Float>(cells) * Float(grid.factor) + x0
                            let (r, g, b, a) = evaluate(x: x, y: y, source: source, extras: extras)
                            for l in 0..<min(8, count - k) {
                                let p = offset &+ Int(cells[l])
                                band.r[p] = r[l]
                                band.g[p] = g[l]
                                band.b[p] = b[l]
                                band.a[p] = a[l]
                            }
                            k += 8
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
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: max(stages.count, 1)) { extras in
            for y in rows {
                let cellRow: Int = grid.cellRow(y).row
                let chunks: UnsafeMutablePointer<Float> = marks.r + (cellRow * marks.stride + firstChunk)
                let offset = (y &- firstRow) &* band.stride
                let py = SIMD8<Float>(repeating: Float(y) + 0.5)
                var x = span.lowerBound, c = 0
                while x < span.upperBound {
                    defer {
                        x &+= 8
                        c &+= 1
                    }
                    guard chunks[c] != 0 else { continue }
                    var (r, g, b, a) = evaluate(x: lane + Float(x), y: py, source: source, extras: extras)
                    if x < columns.lowerBound || x &+ 8 > columns.upperBound {
                        let inside =
                            LaneMask.first(min(8, max(0, columns.upperBound &- x)))
                            & ~LaneMask.first(min(8, max(0, columns.lowerBound &- x)))
                        (r, g, b, a) = (
                            LaneMask.select(inside, r, SIMD8()), LaneMask.select(inside, g, SIMD8()),
                            LaneMask.select(inside, b, SIMD8()), LaneMask.select(inside, a, SIMD8())
                        )
                    }
                    let p = offset &+ x
                    store(r, band.r + p)
                    store(g, band.g + p)
                    store(b, band.b + p)
                    store(a, band.a + p)
                }
            }
        }
    }
}

extension PixelPipeline {
    /// The stages at eight frame positions.
    @inline(__always)
    func evaluate(
        x: SIMD8<Float>, y: SIMD8<Float>, source: ReducedBlurSampler,
        extras: UnsafeMutableBufferPointer<SIMD8<Float>>
    ) -> (r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>) {
        var sx = x, sy = y
        if movesPixels { mapBack(&sx, &sy, extras: extras) }
        var (r, g, b, a) = source.colour(x: sx, y: sy)
        applyColours(&r, &g, &b, &a, extras: extras)
        return (r, g, b, a)
    }
}
