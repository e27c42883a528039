/// Gaussian blur of a premultiplied region of a band, whose cost per pixel does not grow with the
/// radius.
///
/// `radius` is the standard deviation σ in pixels, as in CSS `blur()` and Core Image. Each axis is
/// three box filters whose variances add up to σ² exactly, one of them with fractional end taps
/// (`BoxKernel`), so the result is continuous in σ. Running sums make every box O(1) per pixel.
///
/// The image outside the region is its border pixel repeated (clamp to edge): the result is the
/// blur of that infinite image. A negative or NaN radius is the identity. Every channel gets the same kernel and the last pass clamps to
/// 0 ≤ colour ≤ alpha ≤ 1, so rounding cannot break the premultiplied invariant.
///
/// **Large radii** run on a copy reduced 4× in each direction (4×4 box average), blurred with σ
/// reduced to match, and bilinearly enlarged back: 16× fewer pixels to blur. The reduction and
/// the enlargement add variance (4² − 1)/12 and 4²/6 per axis, which the reduced σ leaves out, so
/// the total stays σ². It differs from the full-resolution three boxes by at most 0.0013 on a
/// step edge and 0.003 on white noise at σ = 16, 0.0003 and 0.0011 at σ = 30 (the three boxes
/// themselves are within 0.011 of a sampled Gaussian on a step edge). Between σ = 12 and 16 both
/// are computed and cross-faded (smoothstep in σ), so nothing jumps when an animated radius
/// crosses over. The border of the reduced copy holds the region's edge pixels (reduced along
/// the edge only), so clamp-to-edge stays exact there too.
///
/// Below σ = 0.04 the blur is the identity. The kernel itself tends to the identity (each axis
/// moves σ²/6 of a pixel's weight to each neighbour per box), so switching at 0.04 changes an
/// isolated pixel by at most 2σ² = 0.0032 and a step edge by σ²/2 = 0.0008, below one 8-bit
/// code value (0.0039). A threshold of 0.3 would make a blur animated up from 0 start with a
/// visible pop of up to 0.18.
///
/// **Work split.** The caller parallelises two phases: `blurRows(part:of:)` for every part in
/// 0..<parts, then, after all of them have finished, `blurColumns(part:of:)` for every part (the
/// number of parts may differ between phases). Parts are disjoint row ranges, respectively column
/// strips, chosen here so that they fall on the boundaries the kernels need; every output value is
/// computed by the same operations whatever the split, so the bytes do not depend on the thread
/// count. Call `prepare` first, on one thread. About one part per worker is right for the column
/// phase: each part slides over all rows of its strip, and narrower strips read memory less
/// efficiently.
public struct GaussianBlur: Sendable {
    public static let identityThreshold = 0.04
    /// From this σ the reduced blur is cross-faded in; from `reducedOnlyFrom` it runs alone.
    public static let reducedFrom = 12.0
    public static let reducedOnlyFrom = 16.0
    /// The reduction factor of the reduced blur, per axis.
    static let factor = 4

    public let radius: Double
    /// The blur at full resolution, if it contributes.
    let full: BoxKernel?
    /// The blur of the reduced copy, if it contributes.
    let reduced: BoxKernel?
    /// The reduced blur's share of the result, 0…1 (1 when `full` is nil).
    let reducedWeight: Float
    /// How far (pixels) the blur spreads content; callers pad a layer's bounds by this.
    public let reach: Int

    public init(radius: Double) {
        precondition(!radius.isInfinite, "blur radius must be finite")
        self.radius = radius
        guard radius >= Self.identityThreshold else {
            (full, reduced, reducedWeight, reach) = (nil, nil, 0, 0)
            return
        }
        full = radius < Self.reducedOnlyFrom ? BoxKernel(sigma: radius) : nil
        if radius >= Self.reducedFrom {
            let f = Double(Self.factor)
            let added = (3 * f * f - 1) / 12
            let kernel = BoxKernel(sigma: (radius * radius - added).squareRoot() / f)
            reduced = kernel
            let t = min(1, (radius - Self.reducedFrom) / (Self.reducedOnlyFrom - Self.reducedFrom))
            reducedWeight = full == nil ? 1 : Float(t * t * (3 - 2 * t))
        } else {
            reduced = nil
            reducedWeight = 0
        }
        // The reduced blur spreads over its reduced reach plus one block each for the reduction
        // and the enlargement.
        reach = max(full?.reach ?? 0, reduced.map { Self.factor * ($0.reach + 2) } ?? 0)
    }

    public var isIdentity: Bool { reach == 0 }

    /// Makes `workspace` ready for this blur of a `rowCount` × `columns.count` region. Call
    /// before the two phases, on one thread; it allocates only when the region or the blur grew.
    public func prepare(_ workspace: BlurWorkspace, rowCount: Int, columns: Range<Int>) {
        guard reduced != nil else { return }
        let size = ReducedSize(rowCount: rowCount, columnCount: columns.count)
        workspace.reserveReduced(width: size.bandWidth, rows: size.bandRows)
    }

    /// Phase 1: the rows of part `part` (of `parts`) of the region rows 0..<rowCount × `columns`.
    public func blurRows(
        _ image: PlanarBand, rowCount: Int, columns: Range<Int>, part: Int, of parts: Int, worker: Int,
        workspace: BlurWorkspace
    ) {
        guard !isIdentity, rowCount > 0, !columns.isEmpty else { return }
        checkRegion(image, rowCount, columns)
        let rows = Self.split(0..<rowCount, part: part, of: parts)
        guard !rows.isEmpty else { return }
        let scratch = workspace.scratch(worker)
        // The reduction reads the original rows, so it goes before the full blur overwrites them.
        if let reduced {
            reduceRows(
                image, rowCount: rowCount, columns: columns, rows: rows, kernel: reduced,
                workspace: workspace,
                scratch: scratch)
        }
        full?.blurRows(image, rows: rows, columns: columns, scratch: scratch)
    }

    /// Phase 2, after every part of phase 1 has finished: the columns of part `part` (of
    /// `parts`) of the region.
    ///
    /// - Parameter colors: colour stages after the blur, for a reduced-only blur (`isReducedOnly`):
    ///   applied to the blurred reduced copy before it is enlarged, on 1/16 of the pixels. A
    ///   colour matrix is linear, so it commutes with the bilinear enlargement; only its clamp
    ///   to valid premultiplied values comes before the interpolation instead of after.
    public func blurColumns(
        _ image: PlanarBand, rowCount: Int, columns: Range<Int>, part: Int, of parts: Int, worker: Int,
        workspace: BlurWorkspace, colors: ColorMatrix? = nil
    ) {
        precondition(
            colors == nil || isReducedOnly, "colours go before the enlargement of a reduced-only blur")
        guard !isIdentity, rowCount > 0, !columns.isEmpty else { return }
        checkRegion(image, rowCount, columns)
        let strip = Self.split(columns, part: part, of: parts)
        guard !strip.isEmpty else { return }
        let scratch = workspace.scratch(worker)
        full?.blurColumns(
            image, rowCount: rowCount, columns: strip, into: image, at: strip.lowerBound, scratch: scratch)
        if let reduced {
            enlargeColumns(
                image, rowCount: rowCount, columns: columns, strip: strip, kernel: reduced, colors: colors,
                workspace: workspace,
                scratch: scratch)
        }
    }

    /// Both phases on the calling thread (tests, small images). Allocates its own workspace.
    public func apply(to image: PlanarBand, rowCount: Int, columns: Range<Int>) {
        guard !isIdentity else { return }
        let workspace = BlurWorkspace(workers: 1)
        prepare(workspace, rowCount: rowCount, columns: columns)
        blurRows(image, rowCount: rowCount, columns: columns, part: 0, of: 1, worker: 0, workspace: workspace)
        blurColumns(
            image, rowCount: rowCount, columns: columns, part: 0, of: 1, worker: 0, workspace: workspace)
    }

    private func checkRegion(_ image: PlanarBand, _ rowCount: Int, _ columns: Range<Int>) {
        precondition(rowCount <= image.capacityRows, "rows outside the band")
        precondition(columns.lowerBound >= 0 && columns.upperBound <= image.width, "columns outside the band")
    }

    /// Part `part` of `parts` near-equal pieces of `range`, with inner boundaries on multiples of
    /// 16: whole 16-row blocks for the row pass (and whole 4-row blocks for the reduction), whole
    /// 16-column vectors on cache-line boundaries for the column pass.
    static func split(_ range: Range<Int>, part: Int, of parts: Int) -> Range<Int> {
        precondition(parts > 0 && part >= 0 && part < parts, "part out of range")
        @inline(__always) func boundary(_ i: Int) -> Int {
            if i == 0 { return range.lowerBound }
            if i == parts { return range.upperBound }
            let x = range.lowerBound + range.count * i / parts
            return min(max((x + 8) & ~15, range.lowerBound), range.upperBound)
        }
        return boundary(part)..<max(boundary(part), boundary(part + 1))
    }
}

extension PlanarBand {
    /// Plane 0…3 = r, g, b, a.
    @inline(__always)
    func plane(_ index: Int) -> UnsafeMutablePointer<Float> {
        switch index {
        case 0: r
        case 1: g
        case 2: b
        default: a
        }
    }
}
