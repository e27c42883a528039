/// A stroke's geometry in the path's own units: the width centred on the outline, how open ends
/// look and how corners turn. `miterLimit` is SVG's: the longest miter as a multiple of the width
/// before the join is beveled instead.
public struct StrokeStyle: Sendable, Hashable {
    public var width: Double
    public var cap: LineCap
    public var join: LineJoin
    public var miterLimit: Double

    public init(width: Double, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 4) {
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
    }
}
