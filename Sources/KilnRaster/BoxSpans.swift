/// Which pixels of a frame row have their centre inside a rectangle under an affine map: the
/// rectangle is |x| ≤ halfX, |y| ≤ halfY in a local space reached from frame pixel centres by
/// local = (a·px + c·py + tx, b·px + d·py + ty). Painters use it to skip the pixels of a row
/// that are surely outside a shape and to fill those surely inside without per-pixel distances.
struct BoxSpans {
    let a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    /// Columns (pixel indices, clamped to `limit`) whose centres x + 0.5 lie inside the box on
    /// frame row `y`; empty when none or when the box is empty.
    func columns(row y: Int, halfX: Double, halfY: Double, limit: Range<Int>) -> Range<Int> {
        guard halfX >= 0, halfY >= 0 else { return limit.lowerBound..<limit.lowerBound }
        let py = Double(y) + 0.5
        var lo = -Double.infinity, hi = Double.infinity
        // Each local coordinate is linear in px: k·px + offset must lie in [-half, half]. (Two
        // plain calls, not a loop over an array: this runs for every row of every shape.)
        @inline(__always) func constrain(_ k: Double, _ offset: Double, _ half: Double) -> Bool {
            if abs(k) < 1e-12 { return abs(offset) <= half }
            let p = (-half - offset) / k, q = (half - offset) / k
            lo = max(lo, min(p, q))
            hi = min(hi, max(p, q))
            return true
        }
        guard constrain(a, c * py + tx, halfX), constrain(b, d * py + ty, halfY), lo <= hi else {
            return limit.lowerBound..<limit.lowerBound
        }
        // Pixel x has its centre at x + 0.5.
        let first = SaturatingConversion.int(lo - 0.5, .up, nan: limit.lowerBound)
        let last = SaturatingConversion.int(hi - 0.5, .down, nan: limit.upperBound - 1)
        let lower = max(first, limit.lowerBound), upper = min(last + 1, limit.upperBound)
        return lower < upper ? lower..<upper : limit.lowerBound..<limit.lowerBound
    }
}
