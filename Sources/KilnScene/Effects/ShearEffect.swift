import KilnModel
import KilnRaster

/// A distortion effect: shears the layer about an anchor, a row `dy` below it moving right by
/// `x · dy` and a column `dx` right of it moving down by `y · dx`.
public struct ShearEffect: PixelStageEffect {
    public let x: Animated<Double>
    public let y: Animated<Double>
    public let anchor: Animated<Point2>
    public let edges: PlanarSampler.Edges

    enum Key {
        static let x = ParameterKey<Animated<Double>>("x")
        static let y = ParameterKey<Animated<Double>>("y")
        static let anchor = ParameterKey<Animated<Point2>>("anchor")
    }

    public static let kind = EffectKind(
        name: "shear", summary: "shears the layer about an anchor (a distortion effect)",
        parameters: ParameterTable([
            Parameter(
                Key.x, .number(-10...10), default: .number(0),
                help:
                    "horizontal shift per pixel below the anchor: a row dy pixels below it moves right by x·dy"
            ),
            Parameter(
                Key.y, .number(-10...10), default: .number(0),
                help:
                    "vertical shift per pixel right of the anchor: a column dx pixels right of it moves down by y·dx"
            ),
            Parameter(
                Key.anchor, .point(0...1), default: .point(Point2(x: 0.5, y: 0.5)),
                help: "the fixed point, as a fraction of the layer's size"),
            edgesParameter,
        ])
    ) { p, _, _ in
        ShearEffect(
            x: p[Key.x], y: p[Key.y], anchor: p[Key.anchor],
            edges: PlanarSampler.Edges(rawValue: p[edgesKey]) ?? .transparent)
    }

    public func stage(at time: Double, layerSize: SIMD2<Double>) -> (any PixelStage)? {
        let x = x.value(at: time), y = y.value(at: time)
        guard x != 0 || y != 0 else { return nil }
        let anchor = anchor.value(at: time)
        return Shear(
            x: Float(x), y: Float(y),
            anchor: SIMD2(Float(anchor.x * layerSize.x), Float(anchor.y * layerSize.y)),
            size: SIMD2<Float>(layerSize))
    }
}

/// A shear about an anchor point: a row `dy` below the anchor moves right by `x · dy`, a column
/// `dx` right of it moves down by `y · dx`.
public struct Shear: DistortionStage {
    public let x: Float
    public let y: Float
    public let anchor: SIMD2<Float>
    /// The layer's size, for the reach.
    let size: SIMD2<Float>

    public init(x: Float, y: Float, anchor: SIMD2<Float>, size: SIMD2<Float>) {
        (self.x, self.y, self.anchor, self.size) = (x, y, anchor, size)
    }

    public var reach: Double { Double(abs(x) * size.y + abs(y) * size.x) }
    /// Affine: as smooth as a mapping gets.
    public var featureSize: Double? { .infinity }

    @inline(__always)
    public func mapBack(_ px: inout SIMD8<Float>, _ py: inout SIMD8<Float>) {
        let dx = px - anchor.x, dy = py - anchor.y
        px -= x * dy
        py -= y * dx
    }
}
