/// What a path's coverage is filled with: one premultiplied colour, or a linear gradient whose
/// points are in the path's own (local) space.
public enum PathPaint: Sendable {
    case solid(SIMD4<Float>)
    case gradient(LinearGradient)
}
