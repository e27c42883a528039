/// Evaluates y(x) of a cubic Bézier from (0,0) to (1,1): find the curve parameter whose x
/// matches, then read y there.
enum CubicBezier {
    static func solve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
        // Written so that a NaN fraction (which no comparison holds for) gives the start.
        guard x > 0 else { return 0 }
        if x >= 1 { return 1 }
        let cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx
        let cy = 3 * y1, by = 3 * (y2 - y1) - cy, ay = 1 - cy - by
        func curveX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
        func curveY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
        func slopeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

        let tolerance = 1e-12
        // Newton converges in a few steps almost everywhere...
        var t = x
        for _ in 0..<8 {
            let error = curveX(t) - x
            if abs(error) < tolerance { return curveY(t) }
            let slope = slopeX(t)
            if abs(slope) < 1e-9 { break }
            t -= error / slope
            if t < 0 || t > 1 { break }
        }
        // ...but stalls where the curve is flat in x; x(t) is monotonic for x1, x2 in 0…1, so
        // bisection always works.
        var low = 0.0, high = 1.0
        t = x
        for _ in 0..<100 {
            let value = curveX(t)
            if abs(value - x) < tolerance { break }
            if value < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return curveY(t)
    }
}
