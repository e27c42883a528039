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
    func color(x: SIMD8<Float>, y: SIMD8<Float>) -> (
        r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
    ) {
        // Frame x = x₀ + 4j − 2 is copy sample j, whose centre the sampler puts at j + 0.5.
        let cx = (between(x, SIMD8(repeating: low.x), SIMD8(repeating: high.x)) - (low.x - 0.5)) * 0.25 + 1
        let cy = (between(y, SIMD8(repeating: low.y), SIMD8(repeating: high.y)) - (low.y - 0.5)) * 0.25 + 1
        return copy.color(x: cx, y: cy)
    }

    /// `colour` at `count` groups of eight positions (`PlanarSampler.colour(x:y:count:into:)`);
    /// overwrites `x` and `y`.
    @inline(__always)
    func color(
        x: UnsafeMutablePointer<SIMD8<Float>>, y: UnsafeMutablePointer<SIMD8<Float>>, count: Int,
        into color: UnsafeMutablePointer<SIMD8<Float>>, scratch: UnsafeMutablePointer<SIMD8<Float>>,
        index: UnsafeMutablePointer<SIMD8<Int32>>
    ) {
        let lowX = SIMD8(repeating: low.x), highX = SIMD8(repeating: high.x)
        let lowY = SIMD8(repeating: low.y), highY = SIMD8(repeating: high.y)
        for k in 0..<count {
            x[k] = (between(x[k], lowX, highX) - (low.x - 0.5)) * 0.25 + 1
            y[k] = (between(y[k], lowY, highY) - (low.y - 0.5)) * 0.25 + 1
        }
        copy.color(x: x, y: y, count: count, into: color, scratch: scratch, index: index)
    }
}
