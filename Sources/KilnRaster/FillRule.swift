/// Which points a path's outline encloses: SVG's `fill-rule`. Non-zero counts a point inside
/// when the outline winds around it at all; even-odd when it crosses an odd number of edges on
/// the way out, so a subpath inside another punches a hole whatever its direction.
public enum FillRule: String, Sendable, Hashable, CaseIterable {
    case nonZero, evenOdd
}
