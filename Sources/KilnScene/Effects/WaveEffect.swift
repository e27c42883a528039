import KilnModel
import KilnRaster

/// A distortion effect: a travelling sine wave that moves rows sideways (or columns up and down).
public struct WaveEffect: PixelStageEffect {
    public let amplitude: Animated<Double>
    public let wavelength: Animated<Double>
    public let speed: Animated<Double>
    public let horizontal: Bool
    public let edges: PlanarSampler.Edges

    enum Key {
        static let amplitude = ParameterKey<Animated<Double>>("amplitude")
        static let wavelength = ParameterKey<Animated<Double>>("wavelength")
        static let speed = ParameterKey<Animated<Double>>("speed")
        static let axis = ParameterKey<String>("axis")
    }

    public static let kind = EffectKind(
        name: "wave", summary: "a travelling sine wave (a distortion effect)",
        parameters: ParameterTable([
            Parameter(
                Key.amplitude, .number(-1000...1000), default: .number(10), help: "pixels; 0 = unchanged"),
            Parameter(Key.wavelength, .number(1...100_000), default: .number(200), help: "pixels per cycle"),
            Parameter(
                Key.speed, .number(-1000...1000), default: .number(1),
                help: "cycles per second the wave travels"),
            Parameter(
                Key.axis, .choice(["horizontal", "vertical"]), default: .string("horizontal"),
                help: "horizontal: rows move sideways; vertical: columns move up and down"),
            edgesParameter,
        ])
    ) { p, _, _ in
        WaveEffect(
            amplitude: p[Key.amplitude], wavelength: p[Key.wavelength], speed: p[Key.speed],
            horizontal: p[Key.axis] == "horizontal",
            edges: PlanarSampler.Edges(rawValue: p[edgesKey]) ?? .transparent)
    }

    public func stage(at time: Double, layerSize: SIMD2<Double>) -> (any PixelStage)? {
        let amplitude = amplitude.value(at: time)
        guard amplitude != 0 else { return nil }
        let cycles = time * speed.value(at: time)
        return Wave(
            amplitude: Float(amplitude), wavelength: Float(wavelength.value(at: time)),
            phase: Float(cycles - cycles.rounded(.down)), horizontal: horizontal)
    }
}

/// A travelling sine wave: along `horizontal` rows move sideways by
/// amplitude · sin(2π (y / wavelength − phase)); otherwise columns move up and down with x.
public struct Wave: DistortionStage {
    public let amplitude: Float
    public let wavelength: Float
    /// Cycles travelled so far (time · speed).
    public let phase: Float
    public let horizontal: Bool

    public init(amplitude: Float, wavelength: Float, phase: Float, horizontal: Bool) {
        (self.amplitude, self.wavelength, self.phase, self.horizontal) = (
            amplitude, wavelength, phase, horizontal
        )
    }

    public var reach: Double { Double(abs(amplitude)) }
    /// The wavelength / 2π: the scale of the wave's curvature radius.
    public var featureSize: Double? { Double(abs(wavelength)) / (2 * Double.pi) }

    @inline(__always)
    public func mapBack(_ x: inout SIMD8<Float>, _ y: inout SIMD8<Float>) {
        let twoPi: Float = 6.283_185_5
        // The phase is reduced to one cycle so long videos keep full precision.
        let cycles = phase - phase.rounded(.down)
        if horizontal {
            x -= amplitude * sine(twoPi * (y * (1 / wavelength) - cycles))
        } else {
            y -= amplitude * sine(twoPi * (x * (1 / wavelength) - cycles))
        }
    }
}
