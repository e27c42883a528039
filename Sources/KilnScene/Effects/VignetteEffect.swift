import KilnModel
import KilnRaster

/// A vignette: the layer darkens (or fades towards `color`) away from its centre, the falloff an
/// ellipse fitted to the layer. A colour stage that reads each pixel's position, which is all it
/// needs: one file and one registry line (issue 38's open stage model).
public struct VignetteEffect: PixelStageEffect {
    public let amount: Animated<Double>
    public let radius: Animated<Double>
    public let softness: Animated<Double>
    public let color: Animated<RGBA>

    enum Key {
        static let amount = ParameterKey<Animated<Double>>("amount")
        static let radius = ParameterKey<Animated<Double>>("radius")
        static let softness = ParameterKey<Animated<Double>>("softness")
        static let color = ParameterKey<Animated<RGBA>>("color")
    }

    public static let kind = EffectKind(
        name: "vignette", summary: "darkens towards the edges, in an ellipse fitted to the layer",
        parameters: ParameterTable([
            Parameter(
                Key.amount, .number(0...1), default: .number(0.6),
                help: "how far the edges go towards the colour; 0 = unchanged"),
            Parameter(
                Key.radius, .number(0...2), default: .number(0.55),
                help: "where the falloff starts, as a part of the way from the centre to a corner"),
            Parameter(
                Key.softness, .number(0.01...2), default: .number(0.6),
                help: "how far beyond the radius the falloff reaches full amount, in the same units"),
            Parameter(
                Key.color, .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 1)),
                help: "the colour the edges go towards"),
        ]), shorthand: Key.amount.name
    ) { p, _, _ in
        VignetteEffect(
            amount: p[Key.amount], radius: p[Key.radius], softness: p[Key.softness],
            color: p[Key.color])
    }

    public func stage(at time: Double, layerSize: SIMD2<Double>) -> (any PixelStage)? {
        let amount = amount.value(at: time)
        guard amount > 0, layerSize.x > 0, layerSize.y > 0 else { return nil }
        let c = color.value(at: time)
        return Vignette(
            half: SIMD2<Float>(layerSize / 2), amount: Float(amount), radius: Float(radius.value(at: time)),
            softness: Float(softness.value(at: time)), color: SIMD3(Float(c.r), Float(c.g), Float(c.b)),
            colorAlpha: Float(c.a))
    }

    /// The falloff of `VignetteEffect` for a layer whose half size is `half`.
    struct Vignette: ColorStage {
        let half: SIMD2<Float>
        let amount: Float
        let radius: Float
        let softness: Float
        let color: SIMD3<Float>
        let colorAlpha: Float

        /// Smooth: its detail is the falloff's width, in the layer's units along the shorter side.
        var featureSize: Double? { Double(softness * min(half.x, half.y)) / 2 }

        /// How far towards the colour a pixel goes: a smoothstep from `radius` to `radius +
        /// softness` of the distance from the centre, 1 at a corner (x and y as parts of the half
        /// size, over √2).
        @inline(__always)
        func weight(x: SIMD8<Float>, y: SIMD8<Float>) -> SIMD8<Float> {
            let u = (x - half.x) / half.x, v = (y - half.y) / half.y
            let distance = (u * u + v * v).squareRoot() * 0.707_106_78
            let t = between((distance - radius) / softness, 0, 1)
            return t * t * (3 - 2 * t) * (amount * colorAlpha)
        }

        @inline(__always)
        func apply(
            _ r: inout SIMD8<Float>, _ g: inout SIMD8<Float>, _ b: inout SIMD8<Float>,
            _ a: inout SIMD8<Float>,
            at position: PixelPosition
        ) {
            // Towards the colour under the pixel's own coverage (premultiplied by its alpha).
            let w = weight(x: position.x, y: position.y)
            r += (color.x * a - r) * w
            g += (color.y * a - g) * w
            b += (color.z * a - b) * w
        }
    }
}
