extension PixelPipeline {
    /// Evaluates the stages at the points of rows `imageRows` of `grid`'s samples image (band row
    /// 0 = the first of them; see `ReducedGrid`): samples on even rows, cell centres on odd ones
    /// (skipped unless `centres`). The same mapping and colour stages as `paint`, reading a large
    /// blur's reduced copy through `source`, at 1/factor² of the positions (twice that with the
    /// centres). `ReducedGrid.enlarge` then makes the frame's pixels. Each point is computed on
    /// its own, so any split into rows gives the same bytes.
    public func paint(
        grid: ReducedGrid, imageRows: Range<Int>, centres: Bool, into band: PlanarBand,
        source: ReducedBlurSampler
    ) {
        precondition(
            band.stride >= (grid.columns + 7) & ~7 && band.capacityRows >= imageRows.count, "band too small")
        let half = Float(grid.factor / 2)
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: max(stages.count, 1)) { extras in
            for row in imageRows {
                let isCentre = row & 1 == 1
                if isCentre && !centres { continue }
                let shift: Float = isCentre ? half : 0
                let offset = (row &- imageRows.lowerBound) &* band.stride
                let y = SIMD8<Float>(repeating: grid.y(row >> 1) + shift)
                var j = 0
                while j < grid.columns {
                    var sx = grid.x(j) + shift, sy = y
                    if movesPixels { mapBack(&sx, &sy, extras: extras) }
                    var (r, g, b, a) = source.colour(x: sx, y: sy)
                    applyColours(&r, &g, &b, &a, extras: extras)
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
                    var sx = lane + Float(x), sy = py
                    if movesPixels { mapBack(&sx, &sy, extras: extras) }
                    var (r, g, b, a) = source.colour(x: sx, y: sy)
                    applyColours(&r, &g, &b, &a, extras: extras)
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
