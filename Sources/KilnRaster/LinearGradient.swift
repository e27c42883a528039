/// SwiftUI's `LinearGradient(colors:startPoint:endPoint:)`: colours evenly spaced from `start`
/// to `end`, interpolated premultiplied, extended flat beyond the ends.
public struct LinearGradient: Sendable, Equatable {
    public let start: SIMD2<Float>
    public let end: SIMD2<Float>
    /// Premultiplied; at least one.
    public let stops: [SIMD4<Float>]

    public init(start: SIMD2<Float>, end: SIMD2<Float>, stops: [SIMD4<Float>]) {
        precondition(!stops.isEmpty, "a gradient needs a colour")
        self.start = start
        self.end = end
        self.stops = stops
    }

    func offset(by delta: SIMD2<Float>) -> LinearGradient {
        LinearGradient(start: start + delta, end: end + delta, stops: stops)
    }

    /// Colours at eight points: each stop k weighs max(0, 1 − |s − k|), s the position along the
    /// gradient in stop units, which is linear interpolation between neighbouring stops.
    @inline(__always)
    func colors(x: SIMD8<Float>, y: SIMD8<Float>) -> (
        r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
    ) {
        let d = end - start
        let length2 = max((d * d).sum(), 1e-12)
        let t = unit(((x - start.x) * d.x + (y - start.y) * d.y) * (1 / length2))
        let s = t * Float(stops.count - 1)
        var r = SIMD8<Float>(), g = r, b = r, a = r
        for (k, c) in stops.enumerated() {
            let w = positive(1 - magnitude(s - Float(k)))
            r += w * c.x
            g += w * c.y
            b += w * c.z
            a += w * c.w
        }
        return (r, g, b, a)
    }
}
