extension PixelPipeline {
    /// Evaluates the stages at the samples of `grid` rows `rows` (band row 0 = the first of
    /// them), every column, reading a large blur's reduced copy through `source`: the same
    /// mapping and colour stages as `paint`, at 1/factor² of the positions. `ReducedGrid.enlarge`
    /// then makes the frame's pixels. Only for pictures `ReducedGrid.factor` finds smooth
    /// enough; each sample is computed on its own, so any split into rows gives the same bytes.
    public func paint(grid: ReducedGrid, rows: Range<Int>, into band: PlanarBand, source: ReducedBlurSampler) {
        precondition(band.stride >= (grid.columns + 7) & ~7 && band.capacityRows >= rows.count, "band too small")
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: max(stages.count, 1)) { extras in
            for i in rows {
                let offset = (i &- rows.lowerBound) &* band.stride
                let y = SIMD8<Float>(repeating: grid.y(i))
                var j = 0
                while j < grid.columns {
                    var sx = grid.x(j), sy = y
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
}
