import KilnModel
import KilnRaster

/// An iris: the layer shows through a circle that grows from a point (the centre by default)
/// until it covers the layer, and shrinks back to the point as the layer leaves.
public struct IrisTransition: MaskTransition {
    enum Key {
        static let center = ParameterKey<Animated<Point2>>("center")
        static let feather = ParameterKey<Animated<Double>>("feather")
    }

    public static let kind = TransitionKind(
        name: "iris",
        summary: "shows the layer through a circle growing from a point; shrinks back as it leaves",
        parameters: ParameterTable([
            Parameter(
                Key.center, .point(0...1), default: .point(Point2(x: 0.5, y: 0.5)),
                help: "where the circle grows from, as fractions of the layer's width and height"),
            Parameter(
                Key.feather, .constantNumber(0...4096), default: .number(0),
                help: "pixels of soft edge (0: a crisp edge, smoothed over a pixel)"),
        ]), shorthand: Key.feather.name, example: #"{"iris": {"center": [0.5, 0.5], "feather": 12}}"#
    ) { parameters, _ in
        let center = parameters[Key.center].value(at: 0)
        return Self(center: SIMD2(center.x, center.y), feather: parameters[Key.feather].value(at: 0))
    }

    /// Fractions of the layer's size.
    public let center: SIMD2<Double>
    public let feather: Double

    public func effects(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> [any EffectContent]
    {
        let progress = MaskProgress(phase: phase), center = center, feather = Float(feather)
        return progress.effects { size in
            let point = center * size
            // The farthest corner: the circle covers the whole layer when its radius reaches it.
            let corners = [SIMD2(0, 0), SIMD2(size.x, 0), SIMD2(0, size.y), size]
            let far = corners.map { (($0 - point) * ($0 - point)).sum().squareRoot() }.max() ?? 0
            return Circle(
                center: SIMD2<Float>(point), farthest: Float(far), shown: Float(progress.shown),
                feather: feather)
        }
    }

    struct Circle: CoverageMask {
        let center: SIMD2<Float>
        let farthest: Float
        let shown: Float
        let feather: Float

        @inline(__always)
        func coverage(
            at position: PixelPosition, r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
        ) -> SIMD8<Float> {
            let width = featherWidth(feather, position)
            // From −width/2 (nothing shown) to the farthest corner + width/2 (everything).
            let radius = shown * (farthest + width) - width / 2
            let dx = position.x - center.x, dy = position.y - center.y
            return edgeCoverage(radius - (dx * dx + dy * dy).squareRoot(), width: width)
        }
    }
}
