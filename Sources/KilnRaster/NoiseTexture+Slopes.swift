/// Bounds on how steep a noise texture's filtered values get, so a warp driven by it can tell
/// how much it may squeeze the picture it moves (see `NoiseWarp.stretch`).
///
/// Both bounds are per unit of u and of v (the texture's width and height are 1), as the norm
/// over the two channels: `x` bounds |∂(red, green)/∂u| and `y` bounds |∂(red, green)/∂v|
/// anywhere. They are exact for the texture's bilinear filter cell by cell, not estimates from
/// samples: within a cell each partial derivative is a blend of two texel differences, so the
/// larger of those bounds it.
public struct NoiseSlopes: Sendable, Equatable {
    /// One lookup: noise(uv).
    public let noise: SIMD2<Double>
    /// Domain warping's second lookup as a function of uv: noise(uv + noise(uv)). Its derivative
    /// is J_noise(uv + q) · (I + J_noise(uv)); the first factor is bounded by the steepest cell
    /// that the image of uv's cell under uv + q can reach (inside the hull of its corners'
    /// images, since the filter is bilinear), the second by uv's own cell.
    public let domainWarp: SIMD2<Double>
}

extension NoiseTexture {
    /// Measured once, on first use, then kept (a 256² texture takes a few milliseconds).
    public var slopes: NoiseSlopes {
        measuredSlopes.withLock { cached in
            if let cached { return cached }
            let slopes = measureSlopes()
            cached = slopes
            return slopes
        }
    }

    private func measureSlopes() -> NoiseSlopes {
        let w = width, h = height
        let scale = SIMD2(Double(w), Double(h))
        @inline(__always) func value(_ x: Int, _ y: Int) -> SIMD2<Double> {
            let t = texel(x: x, y: y)
            return SIMD2(Double(t.red), Double(t.green))
        }
        @inline(__always) func larger(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
            SIMD2(max(abs(a.x), abs(b.x)), max(abs(a.y), abs(b.y)))
        }
        @inline(__always) func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
        // Cell (x, y) lies between the centres of texels x…x + 1 and y…y + 1 (wrapped). Per cell:
        // the largest |∂/∂u| and |∂/∂v| of (red, green) separately, and the cell's bound on the
        // whole Jacobian's norm (its Frobenius norm).
        var du = [SIMD2<Double>](repeating: .zero, count: w * h)
        var dv = du
        var steepest = [Double](repeating: 0, count: w * h)
        var noise = SIMD2<Double>()
        for y in 0..<h {
            for x in 0..<w {
                let a = value(x, y), b = value(x + 1, y), c = value(x, y + 1), d = value(x + 1, y + 1)
                let u = larger(b - a, d - c) * scale.x, v = larger(c - a, d - b) * scale.y
                let i = y * w + x
                (du[i], dv[i]) = (u, v)
                steepest[i] = (length(u) * length(u) + length(v) * length(v)).squareRoot()
                noise = SIMD2(max(noise.x, length(u)), max(noise.y, length(v)))
            }
        }
        var warp = SIMD2<Double>()
        for y in 0..<h {
            for x in 0..<w {
                // The cell's corners moved by their noise, in texel coordinates (texel centre i
                // at i); the moved cell lies within their bounding box.
                var low = SIMD2(Double.infinity, .infinity), high = -low
                for (cx, cy) in [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)] {
                    let moved = SIMD2(Double(cx), Double(cy)) + value(cx, cy) * scale
                    low = SIMD2(min(low.x, moved.x), min(low.y, moved.y))
                    high = SIMD2(max(high.x, moved.x), max(high.y, moved.y))
                }
                var reached = 0.0
                // (A box wider than the texture reaches every cell once.)
                let left = Int(low.x.rounded(.down)), top = Int(low.y.rounded(.down))
                let columns = left...min(Int(high.x.rounded(.down)), left + w - 1)
                for ry in top...min(Int(high.y.rounded(.down)), top + h - 1) {
                    let row = ((ry % h) + h) % h * w
                    for rx in columns { reached = max(reached, steepest[row + ((rx % w) + w) % w]) }
                }
                let i = y * w + x
                // Columns of I + J_noise: (1 + ∂red/∂u, ∂green/∂u) and (∂red/∂v, 1 + ∂green/∂v).
                let columnU = length(SIMD2(1 + du[i].x, du[i].y)),
                    columnV = length(SIMD2(dv[i].x, 1 + dv[i].y))
                warp = SIMD2(max(warp.x, reached * columnU), max(warp.y, reached * columnV))
            }
        }
        return NoiseSlopes(noise: noise, domainWarp: warp)
    }
}
