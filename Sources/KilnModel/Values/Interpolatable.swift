/// A value that can be blended between two states. `t` may leave 0…1 (a spring overshoots),
/// so conformances extrapolate rather than clamp; renderers clamp what they must.
public protocol Interpolatable: Sendable {
    static func interpolate(_ a: Self, _ b: Self, _ t: Double) -> Self
}

extension Double: Interpolatable {
    public static func interpolate(_ a: Double, _ b: Double, _ t: Double) -> Double {
        a + (b - a) * t
    }
}
