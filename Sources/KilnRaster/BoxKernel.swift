/// Three box filters per axis whose variances add up to σ² exactly (σ in the pixels of the image
/// they run on); the arithmetic core of `GaussianBlur`.
///
/// Boxes of integer width alone would move σ in steps, and an animated radius would visibly jump
/// from frame to frame; so boxes are *extended* (Gwosdek et al. 2011): 2r+1 taps of weight 1 plus
/// one tap of weight 0 ≤ α < 1 on each side. As α rises from 0 to 1 a box becomes a plain box
/// one wider, so the kernel is continuous in σ.
///
/// From σ = √2 only the third box is extended and the widths step on one box at a time:
/// (r,r,r) → (r,r,r+1) → (r,r+1,r+1) → (r+1,r+1,r+1), the fractional box always moving last. A
/// plain box costs two additions per sample, an extended one four, so this is a third cheaper
/// than three extended boxes. Below √2 that uneven shape is a poor Gaussian (0.07 off on a step
/// edge at σ = 0.8), so there all three boxes are the same three taps [α, 1, α] (0.02 off). At
/// σ = √2 both are three plain 3-tap boxes, so the switch is seamless.
///
/// The passes sum without normalising and multiply by `scale` once at the end.
struct BoxKernel: Sendable {
    /// One box filter: taps −radius…radius of weight 1, and `tail` on −radius−1 and radius+1.
    struct Box: Sendable, Equatable {
        var radius: Int
        var tail: Float

        var weight: Double { Double(2 * radius + 1) + 2 * Double(tail) }
    }

    /// In pipeline order. From σ = √2: two plain boxes, the smaller first, then the extended one.
    let boxes: (Box, Box, Box)
    /// Whether the first two boxes have tails too (σ < √2), which costs each a multiply and two
    /// additions more per sample.
    let tails: Bool
    let scale: Float
    /// Support radius in pixels, counting the outer taps of every box.
    let reach: Int

    /// - Parameter sigma: at least 0.04 (smaller blurs are the identity and never get here).
    init(sigma: Double) {
        let variance = sigma * sigma
        // Variance of an extended box: (r(r+1)(2r+1)/3 + 2α(r+1)²) / (2r+1+2α); solved for α
        // given the variance v it should have.
        @inline(__always) func tail(_ r: Int, _ v: Double) -> Float {
            let rr = Double(r)
            return Float(
                min(max((2 * rr + 1) * (v - rr * (rr + 1) / 3) / (2 * ((rr + 1) * (rr + 1) - v)), 0), 1))
        }
        if variance < 2 {
            let box = Box(radius: 0, tail: tail(0, variance / 3))
            boxes = (box, box, box)
            tails = true
        } else {
            // Three plain boxes of radius r have variance r(r+1); find the largest such r ≤ σ²,
            // then widen boxes one at a time (each step adds 2(r+1)/3) and let the extended box
            // cover the remainder.
            var r = Int((((1 + 4 * variance).squareRoot() - 1) / 2).rounded(.down))
            while Double(r * (r + 1)) > variance { r -= 1 }
            while Double((r + 1) * (r + 2)) <= variance { r += 1 }
            let step = Double(2 * (r + 1)) / 3
            let excess = variance - Double(r * (r + 1))
            let widened = min(2, Int(excess / step))
            let remainder = excess - Double(widened) * step
            // The smaller plain box goes first: the vertical pass reads its input straight from
            // the image and writes the result back in place, which is safe while the first box
            // reaches no further back than the other two lag behind it.
            boxes = (
                Box(radius: widened >= 2 ? r + 1 : r, tail: 0),
                Box(radius: widened >= 1 ? r + 1 : r, tail: 0),
                Box(radius: r, tail: tail(r, Double(r * (r + 1)) / 3 + remainder))
            )
            tails = false
        }
        scale = Float(1 / (boxes.0.weight * boxes.1.weight * boxes.2.weight))
        reach = boxes.0.radius + boxes.1.radius + boxes.2.radius + 3
    }

    /// Where padded lines start in scratch: the reach on each side, plus eight slots of slack so
    /// the row pass can store whole transposed 4-column blocks.
    var origin: Int { reach + 8 }

    /// Scratch length, in SIMD16 values, for lines of `count` pixels.
    func lineCapacity(_ count: Int) -> Int { count + 2 * origin }
}
