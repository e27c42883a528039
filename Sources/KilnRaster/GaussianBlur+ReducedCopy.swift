// Reading a large blur's reduced copy directly. From σ = 16 the blur is the reduced copy (4× per
// axis) enlarged bilinearly; a consumer that samples the result at arbitrary positions anyway (a
// warp evaluated on a `ReducedGrid`) can read the copy instead, and the blur skips the
// enlargement: no full-resolution write, no full-resolution packing, 1/16 of the texels.

extension GaussianBlur {
    /// Whether the blur is its reduced copy alone (σ ≥ `reducedOnlyFrom`, no cross-fade with a
    /// full-resolution blur), so that `blurReducedColumns` can replace `blurColumns`.
    public var isReducedOnly: Bool { full == nil && reduced != nil }

    /// What a pass over the reduced copy of a `rowCount` × `columns` region works with: the
    /// reduced blur's kernel, the workspace's copy and its size; nil for an empty region. Only
    /// for a reduced-only blur, after `prepare`.
    func reducedPass(rowCount: Int, columns: Range<Int>, workspace: BlurWorkspace) -> (
        BoxKernel, PlanarBand, ReducedSize
    )? {
        precondition(isReducedOnly, "the blur has a full-resolution part")
        guard rowCount > 0, !columns.isEmpty, let kernel = reduced else { return nil }
        guard let band = workspace.reducedBand else { preconditionFailure("prepare the workspace first") }
        return (kernel, band, ReducedSize(rowCount: rowCount, columnCount: columns.count))
    }

    /// Phase 2 for a caller that reads the reduced copy (`reducedCopy`) rather than the blurred
    /// image: the vertical blur of part `part` (of `parts`) of the copy's columns, in place in
    /// `workspace`. The image keeps the unblurred layer. Same split rules as `blurColumns`.
    public func blurReducedColumns(
        rowCount: Int, columns: Range<Int>, part: Int, of parts: Int, worker: Int, workspace: BlurWorkspace
    ) {
        guard
            let (kernel, band, size) = reducedPass(rowCount: rowCount, columns: columns, workspace: workspace)
        else { return }
        let strip = Self.split(0..<size.columns, part: part, of: parts)
        guard !strip.isEmpty else { return }
        // The column pass clamps to 0 ≤ colour ≤ alpha ≤ 1 and may run in place on its strip.
        kernel.blurColumns(
            band, rowCount: size.rows, columns: strip, into: band, at: strip.lowerBound,
            scratch: workspace.scratch(worker))
    }

    /// The reduced copy's samples per column and the band width it needs for a region of
    /// `rowCount` × `columnCount` pixels (border and padding included).
    public static func reducedCopySize(rowCount: Int, columnCount: Int) -> (rows: Int, bandWidth: Int) {
        let size = ReducedSize(rowCount: rowCount, columnCount: columnCount)
        return (size.bandRows, size.bandWidth)
    }

    /// The blurred reduced copy of the region `rows` × `columns` (frame coordinates) after
    /// `blurRows` and `blurReducedColumns`. It lives in `workspace` until its next blur.
    public func reducedCopy(in workspace: BlurWorkspace, rows: Range<Int>, columns: Range<Int>) -> ReducedCopy
    {
        precondition(isReducedOnly, "the blur has a full-resolution part")
        guard let band = workspace.reducedBand else { preconditionFailure("prepare the workspace first") }
        let size = ReducedSize(rowCount: rows.count, columnCount: columns.count)
        return ReducedCopy(band: band, rows: size.rows, columns: size.columns, region: (rows, columns))
    }
}

/// A blurred region reduced 4× per axis, with its one-sample border (see
/// GaussianBlur+Reduced.swift): band column j, row i is the blur around frame position
/// (x₀ + 4j − 2, y₀ + 4i − 2), x₀ and y₀ the region's first column and row.
public struct ReducedCopy: Sendable {
    public let band: PlanarBand
    /// Samples per column and per row, the border included.
    public let rows: Int
    public let columns: Int
    /// The frame pixels it stands for.
    public let region: (rows: Range<Int>, columns: Range<Int>)
}
