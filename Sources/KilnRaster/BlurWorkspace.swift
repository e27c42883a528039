/// Memory for blurring: the reduced copy of the region, shared by all parts of a run, and scratch
/// for each worker. Grows to the largest region and blur seen and is reused after, so
/// steady-state frames allocate nothing. One run at a time.
public final class BlurWorkspace: @unchecked Sendable {
    private let scratches: [BlurScratch]
    private(set) var reducedBand: PlanarBand?
    /// The region's four edge lines for a painted reduced copy (`GaussianBlur.paintedInput`).
    private(set) var edgeBand: PlanarBand?

    public init(workers: Int) {
        scratches = (0..<max(1, workers)).map { _ in BlurScratch() }
    }

    func scratch(_ worker: Int) -> BlurScratch { scratches[worker] }

    func reserveReduced(width: Int, rows: Int) {
        if let band = reducedBand, band.width >= width, band.capacityRows >= rows { return }
        reducedBand = PlanarBand(
            width: max(width, reducedBand?.width ?? 0), rows: max(rows, reducedBand?.capacityRows ?? 0))
    }

    func reserveEdges(length: Int) {
        if let band = edgeBand, band.width >= length { return }
        edgeBand = PlanarBand(width: length, rows: 4)
    }
}
