// Painting a large blur's reduced copy directly. From σ = 16 the blur reduces its region 4× per
// axis by 4×4 box averages before it blurs anything, so a layer that can paint itself onto any
// pixel grid (a picture: its painter filters at whatever scale it is drawn) can be painted
// straight onto the reduced copy's samples instead: 1/16 of the pixels, and no reduction. A
// sample then holds the layer filtered at the sample's centre rather than the average of the 16
// pixels it stands for; under a blur of σ ≥ 16 the two differ by about a code value at most
// (PaintedReductionTests measures it). The copy's border is not painted: it holds the region's
// edge pixels, which the blur repeats outward (clamp to edge) and which weigh on every sample
// near the edge, so the caller paints the region's four edge lines at full size and the border
// is reduced from them exactly as the reduction would.

/// The reduced copy of a blur's region as a grid a layer paints onto (`GaussianBlur.paintedInput`).
public struct ReducedPaintTarget: Sendable {
    public let band: PlanarBand
    /// The grid's rows and columns, the one-sample border included. A layer paints the inner
    /// ones (`innerRows` × `innerColumns`); `GaussianBlur.reducePaintedBorder` fills the border.
    public let rows: Int
    public let columns: Int
    /// Maps frame coordinates onto the grid: grid column j is centred on frame column
    /// x₀ + 4j − 2 (x₀ the region's first column), grid row i on frame row y₀ + 4i − 2.
    public let gridFromFrame: Affine2D
    /// For the region's edge lines at full size, each from its start: row 0 the region's top
    /// row, 1 its bottom row, 2 its left column, 3 its right column (top to bottom).
    public let edges: PlanarBand

    public var innerRows: Range<Int> { 1..<(rows - 1) }
    public var innerColumns: Range<Int> { 1..<(columns - 1) }
}

extension GaussianBlur {
    /// The reduced copy of the region `rows` × `columns` (frame coordinates) for a layer to paint
    /// onto, in place of phase 1's reduction. Only for a reduced-only blur; call `prepare` first.
    public func paintedInput(in workspace: BlurWorkspace, rows: Range<Int>, columns: Range<Int>)
        -> ReducedPaintTarget
    {
        precondition(isReducedOnly, "the blur has a full-resolution part")
        guard let band = workspace.reducedBand else { preconditionFailure("prepare the workspace first") }
        let size = ReducedSize(rowCount: rows.count, columnCount: columns.count)
        workspace.reserveEdges(length: max(rows.count, columns.count))
        guard let edges = workspace.edgeBand else { preconditionFailure("no edge band") }
        let f = Double(Self.factor)
        let origin = SIMD2(Double(columns.lowerBound) - f, Double(rows.lowerBound) - f)
        return ReducedPaintTarget(
            band: band, rows: size.rows, columns: size.columns,
            gridFromFrame: Affine2D.scale(1 / f, 1 / f).concatenating(.translation(-origin.x, -origin.y)),
            edges: edges)
    }

    /// Phase 1 when a layer has painted the inner samples of `paintedInput` and the caller its
    /// `edges`: the border reduced from the edge lines as `blurRows` reduces it from the image
    /// (4 pixels along the edge per sample, the corners the corner pixels: the same floats), on
    /// the calling thread before the parts run.
    public func reducePaintedBorder(rowCount: Int, columns: Range<Int>, workspace: BlurWorkspace) {
        precondition(isReducedOnly, "the blur has a full-resolution part")
        guard rowCount > 0, !columns.isEmpty else { return }
        guard let band = workspace.reducedBand, let edges = workspace.edgeBand else {
            preconditionFailure("prepare the workspace first")
        }
        let size = ReducedSize(rowCount: rowCount, columnCount: columns.count)
        for plane in 0..<4 {
            let target = band.plane(plane), lines = edges.plane(plane)
            /// Sample k of an edge line of `count` pixels: the mean of pixels 4(k − 1) …< 4k, the
            /// line's last pixel repeated past its end.
            func reduced(_ line: Int, _ k: Int, count: Int) -> Float {
                let base = lines + line * edges.stride
                @inline(__always) func pixel(_ i: Int) -> Float { base[min(4 * (k - 1) + i, count - 1)] }
                return ((pixel(0) + pixel(1)) + (pixel(2) + pixel(3))) * 0.25
            }
            let top = target, bottom = target + (size.rows - 1) * band.stride
            let n = columns.count
            for j in 1...size.blockColumns {
                top[j] = reduced(0, j, count: n)
                bottom[j] = reduced(1, j, count: n)
            }
            (top[0], top[size.columns - 1]) = (lines[0], lines[n - 1])
            (bottom[0], bottom[size.columns - 1]) = (lines[edges.stride], lines[edges.stride + n - 1])
            for i in 1...size.blockRows {
                let row = target + i * band.stride
                row[0] = reduced(2, i, count: rowCount)
                row[size.columns - 1] = reduced(3, i, count: rowCount)
            }
        }
    }

    /// Phase 1 after `reducePaintedBorder`: the horizontal blur of part `part` (of `parts`) of
    /// the painted copy's rows. Phase 2 is `blurColumns` (or `blurReducedColumns`), as after
    /// `blurRows`.
    public func blurPaintedRows(
        rowCount: Int, columns: Range<Int>, part: Int, of parts: Int, worker: Int, workspace: BlurWorkspace
    ) {
        guard
            let (kernel, band, size) = reducedPass(rowCount: rowCount, columns: columns, workspace: workspace)
        else { return }
        let rows = Self.split(0..<size.rows, part: part, of: parts)
        guard !rows.isEmpty else { return }
        kernel.blurRows(band, rows: rows, columns: 0..<size.columns, scratch: workspace.scratch(worker))
    }
}
