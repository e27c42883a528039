import KilnModel
import KilnRaster

/// A distortion effect: shears the layer about an anchor, a row `dy` below it moving right by
/// `x · dy` and a column `dx` right of it moving down by `y · dx`.
public struct ShearEffect: PixelStageEffect {
    public let x: Animated<Double>
    public let y: Animated<Double>
    public let anchor: Animated<Point2>
    public let edges: PlanarSampler.Edges

    public static let kind = EffectKind(
        name: "shear", summary: "shears the layer about an anchor (a distortion effect)",
        parameters: ParameterTable([
            Parameter(
                "x", .number(-10...10), default: .number(0),
                help:
                    "horizontal shift per pixel below the anchor: a row dy pixels below it moves right by x·dy"
            ),
            Parameter(
                "y", .number(-10...10), default: .number(0),
                help:
                    "vertical shift per pixel right of the anchor: a column dx pixels right of it moves down by y·dx"
            ),
            Parameter(
                "anchor", .point(0...1), default: .point(Point2(x: 0.5, y: 0.5)),
                help: "the fixed point, as a fraction of the layer's size"),
            edgesParameter,
        ])
    ) { p, _, _ in
        ShearEffect(
            x: p.number("x"), y: p.number("y"), anchor: p.point("anchor"),
            edges: PlanarSampler.Edges(rawValue: p.string("edges")) ?? .transparent)
    }

    public func stage(at time: Double, layerSize: SIMD2<Double>) -> PixelStage? {
        let x = x.value(at: time), y = y.value(at: time)
        guard x != 0 || y != 0 else { return nil }
        let anchor = anchor.value(at: time)
        return .shear(
            Shear(
                x: Float(x), y: Float(y),
                anchor: SIMD2(Float(anchor.x * layerSize.x), Float(anchor.y * layerSize.y)),
                size: SIMD2<Float>(layerSize)))
    }
}

/// A distortion effect: a travelling sine wave that moves rows sideways (or columns up and down).
public struct WaveEffect: PixelStageEffect {
    public let amplitude: Animated<Double>
    public let wavelength: Animated<Double>
    public let speed: Animated<Double>
    public let horizontal: Bool
    public let edges: PlanarSampler.Edges

    public static let kind = EffectKind(
        name: "wave", summary: "a travelling sine wave (a distortion effect)",
        parameters: ParameterTable([
            Parameter(
                "amplitude", .number(-1000...1000), default: .number(10), help: "pixels; 0 = unchanged"),
            Parameter("wavelength", .number(1...100_000), default: .number(200), help: "pixels per cycle"),
            Parameter(
                "speed", .number(-1000...1000), default: .number(1),
                help: "cycles per second the wave travels"),
            Parameter(
                "axis", .choice(["horizontal", "vertical"]), default: .string("horizontal"),
                help: "horizontal: rows move sideways; vertical: columns move up and down"),
            edgesParameter,
        ])
    ) { p, _, _ in
        WaveEffect(
            amplitude: p.number("amplitude"), wavelength: p.number("wavelength"), speed: p.number("speed"),
            horizontal: p.string("axis") == "horizontal",
            edges: PlanarSampler.Edges(rawValue: p.string("edges")) ?? .transparent)
    }

    public func stage(at time: Double, layerSize: SIMD2<Double>) -> PixelStage? {
        let amplitude = amplitude.value(at: time)
        guard amplitude != 0 else { return nil }
        let cycles = time * speed.value(at: time)
        return .wave(
            Wave(
                amplitude: Float(amplitude), wavelength: Float(wavelength.value(at: time)),
                phase: Float(cycles - cycles.rounded(.down)), horizontal: horizontal))
    }
}
