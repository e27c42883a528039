import KilnModel
import KilnRaster

/// A luma fade: the layer appears by its own brightness, its brightest parts first (darkest
/// first when inverted), and leaves the reverse way: its darkest parts go first.
public struct LumaFadeTransition: MaskTransition {
    enum Key {
        static let invert = ParameterKey<Bool>("invert")
        static let softness = ParameterKey<Animated<Double>>("softness")
    }

    public static let kind = TransitionKind(
        name: "lumaFade",
        summary: "the layer appears by its brightness, brightest parts first; leaves darkest parts first",
        parameters: ParameterTable([
            Parameter(
                Key.invert, .boolean, default: .boolean(false),
                help: "dark parts first in, bright parts first out"),
            Parameter(
                Key.softness, .constantNumber(0...1), default: .number(0.2),
                help: "how gradually each brightness fades in, as a part of the range (0: at once)"),
        ]), shorthand: Key.softness.name, example: #"{"lumaFade": {"softness": 0.3}}"#
    ) { parameters, _ in
        Self(invert: parameters[Key.invert], softness: parameters[Key.softness].value(at: 0))
    }

    public let invert: Bool
    public let softness: Double

    public func effects(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> [any EffectContent]
    {
        let progress = MaskProgress(phase: phase)
        let key = LumaKey(invert: invert, softness: Float(max(softness, 1e-3)), shown: Float(progress.shown))
        return progress.effects { _ in key }
    }

    struct LumaKey: CoverageMask {
        let invert: Bool
        let softness: Float
        let shown: Float

        @inline(__always)
        func coverage(
            at position: PixelPosition, r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
        ) -> SIMD8<Float> {
            // Rec. 709 luma of the straight colour; transparent pixels have none to show.
            let inverse = (1 / a).replacing(with: 0, where: a .<= 0)
            let luma = unit((0.2126 * r + 0.7152 * g + 0.0722 * b) * inverse)
            let key = invert ? 1 - luma : luma
            // A threshold sweeping down from above the brightest to below the darkest.
            return (shown * (1 + softness) - (1 - key)) / softness
        }
    }
}
