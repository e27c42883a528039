/// A 2-D point; for layer geometry usually in unit coordinates (0…1 across the frame).
public struct Point2: Sendable, Hashable, Interpolatable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point2(x: 0, y: 0)

    public static func interpolate(_ a: Point2, _ b: Point2, _ t: Double) -> Point2 {
        Point2(x: Double.interpolate(a.x, b.x, t), y: Double.interpolate(a.y, b.y, t))
    }

    public var description: String { "[\(NumberText.format(x)), \(NumberText.format(y))]" }
}
