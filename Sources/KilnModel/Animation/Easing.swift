/// Timing curves mapping elapsed fraction (0…1) to progress. The named curves are the CSS /
/// SwiftUI cubic Béziers so that values tuned in a browser or in SwiftUI look the same here.
public enum Easing: Sendable, Hashable, CustomStringConvertible {
    case linear
    case easeIn
    case easeOut
    case easeInOut
    /// Control points (x1, y1, x2, y2); x1 and x2 must lie in 0…1 for the curve to be a function of time.
    case cubicBezier(Double, Double, Double, Double)

    public static let names = ["linear", "easeIn", "easeOut", "easeInOut", "cubicBezier"]

    /// Input outside 0…1 is clamped (NaN counts as 0); output may leave 0…1 when a Bézier's y
    /// control points do.
    public func callAsFunction(_ x: Double) -> Double {
        switch self {
        case .linear: return x > 0 ? min(x, 1) : 0
        case .easeIn: return CubicBezier.solve(0.42, 0, 1, 1, at: x)
        case .easeOut: return CubicBezier.solve(0, 0, 0.58, 1, at: x)
        case .easeInOut: return CubicBezier.solve(0.42, 0, 0.58, 1, at: x)
        case .cubicBezier(let x1, let y1, let x2, let y2): return CubicBezier.solve(x1, y1, x2, y2, at: x)
        }
    }

    public var description: String {
        switch self {
        case .linear: "linear"
        case .easeIn: "easeIn"
        case .easeOut: "easeOut"
        case .easeInOut: "easeInOut"
        case .cubicBezier(let x1, let y1, let x2, let y2):
            "cubicBezier(\([x1, y1, x2, y2].map(NumberText.format).joined(separator: ", ")))"
        }
    }
}

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
