// Reading a large blur's reduced copy directly. From σ = 16 the blur is the reduced copy (4× per
// axis) enlarged bilinearly; a consumer that samples the result at arbitrary positions anyway (a
// warp evaluated on a `ReducedGrid`) can read the copy instead, and the blur skips the
// enlargement: no full-resolution write, no full-resolution packing, 1/16 of the texels.

extension GaussianBlur {
    /// Whether the blur is its reduced copy alone (σ ≥ `reducedOnlyFrom`, no cross-fade with a
    /// full-resolution blur), so that `blurReducedColumns` can replace `blurColumns`.
    public var isReducedOnly: Bool { full == nil && reduced != nil }

    /// Phase 2 for a caller that reads the reduced copy (`reducedCopy`) rather than the blurred
    /// image: the vertical blur of part `part` (of `parts`) of the copy's columns, in place in
    /// `workspace`. The image keeps the unblurred layer. Same split rules as `blurColumns`.
    public func blurReducedColumns(
        rowCount: Int, columns: Range<Int>, part: Int, of parts: Int, worker: Int, workspace: BlurWorkspace
    ) {
        precondition(isReducedOnly, "the blur has a full-resolution part")
        guard rowCount > 0, !columns.isEmpty, let kernel = reduced else { return }
        guard let band = workspace.reducedBand else { preconditionFailure("prepare the workspace first") }
        let size = ReducedSize(rowCount: rowCount, columnCount: columns.count)
        let strip = Self.split(0..<size.columns, part: part, of: parts)
        guard !strip.isEmpty else { return }
        // The column pass clamps to 0 ≤ colour ≤ alpha ≤ 1 and may run in place on its strip.
        kernel.blurColumns(
            band, rowCount: size.rows, columns: strip, into: band, at: strip.lowerBound,
            scratch: workspace.scratch(worker))
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

/// Samples a `ReducedCopy` at frame positions, as the enlarged blur would be sampled with
/// clamp-to-edge: positions are clamped to the region's edge pixels' centres first, then read
/// bilinearly from the copy (`texels`: the copy packed by `PackedTexels`). It reads the packed
/// copy only, never the copy's band (the blur workspace's, reused by the next blur), so it stays
/// valid as long as `texels` is not packed again.
public struct ReducedBlurSampler: Sendable {
    let copy: PlanarSampler
    /// The region's first and last pixel centres.
    let low: SIMD2<Float>
    let high: SIMD2<Float>

    public init(_ reduced: ReducedCopy, texels: PackedTexels) {
        copy = PlanarSampler(
            image: reduced.band, rows: 0..<reduced.rows, columns: 0..<reduced.columns, edges: .clamp,
            texels: texels)
        let region = reduced.region
        low = SIMD2(Float(region.columns.lowerBound), Float(region.rows.lowerBound)) + 0.5
        high = SIMD2(Float(region.columns.upperBound - 1), Float(region.rows.upperBound - 1)) + 0.5
    }

    /// Premultiplied colour at eight frame positions.
    @inline(__always)
    func colour(x: SIMD8<Float>, y: SIMD8<Float>) -> (
        r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
    ) {
        // Frame x = x₀ + 4j − 2 is copy sample j, whose centre the sampler puts at j + 0.5.
        let cx = (between(x, SIMD8(repeating: low.x), SIMD8(repeating: high.x)) - (low.x - 0.5)) * 0.25 + 1
        let cy = (between(y, SIMD8(repeating: low.y), SIMD8(repeating: high.y)) - (low.y - 0.5)) * 0.25 + 1
        return copy.colour(x: cx, y: cy)
    }

    /// `colour` at `count` groups of eight positions (`PlanarSampler.colour(x:y:count:into:)`);
    /// overwrites `x` and `y`.
    @inline(__always)
    func colour(
        x: UnsafeMutablePointer<SIMD8<Float>>, y: UnsafeMutablePointer<SIMD8<Float>>, count: Int,
        into colour: UnsafeMutablePointer<SIMD8<Float>>, scratch: UnsafeMutablePointer<SIMD8<Float>>,
        index: UnsafeMutablePointer<SIMD8<Int32>>
    ) {
        let lowX = SIMD8(repeating: low.x), highX = SIMD8(repeating: high.x)
        let lowY = SIMD8(repeating: low.y), highY = SIMD8(repeating: high.y)
        for k in 0..<count {
            x[k] = (between(x[k], lowX, highX) - (low.x - 0.5)) * 0.25 + 1
            y[k] = (between(y[k], lowY, highY) - (low.y - 0.5)) * 0.25 + 1
        }
        copy.colour(x: x, y: y, count: count, into: colour, scratch: scratch, index: index)
    }
}
