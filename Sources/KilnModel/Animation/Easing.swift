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
