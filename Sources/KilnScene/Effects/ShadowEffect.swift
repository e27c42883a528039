import KilnModel
import KilnRaster

/// SwiftUI's `shadow(color:radius:x:y:)` and `ShadowStyle.inner`: the layer's alpha as it is at
/// this point of its effects, blurred, tinted and offset, drawn beneath the layer (or, inner,
/// inside it on top, clipped to its alpha). A glow is a shadow with no offset. Shadows written
/// one after another form one set, each cast by the layer as it was before the first, the first
/// written on top (as SwiftUI's chained shadows and CSS's shadow lists draw them). The blur is
/// `GaussianBlur`, so a shadow's cost does not grow with its radius.
public struct ShadowEffect: EffectContent {
    public let color: Animated<RGBA>
    public let radius: Animated<Double>
    public let x: Animated<Double>
    public let y: Animated<Double>
    public let inner: Bool

    /// Offsets in layout pixels: far beyond any frame, bounded so sums stay finite.
    static let offsetRange: ClosedRange<Double> = -8192...8192

    enum Key {
        static let color = ParameterKey<Animated<RGBA>>("color")
        static let radius = ParameterKey<Animated<Double>>("radius")
        static let x = ParameterKey<Animated<Double>>("x")
        static let y = ParameterKey<Animated<Double>>("y")
        static let inner = ParameterKey<Bool>("inner")
    }

    public static let kind = EffectKind(
        name: "shadow",
        summary: "drop, inner or glow shadow following the layer's alpha; cost independent of the radius",
        parameters: ParameterTable([
            Parameter(
                Key.color, .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0.33)),
                help: "the shadow's colour and opacity (SwiftUI's default: black at 33 %); animatable"),
            Parameter(
                Key.radius, .number(ModifierProperty.blur.range), default: .number(10),
                help:
                    "softness: the Gaussian's standard deviation in layout pixels, as the blur effect and SwiftUI's shadow radius; 0 = a sharp shadow; animatable"
            ),
            Parameter(
                Key.x, .number(offsetRange), default: .number(0),
                help:
                    "offset to the right in layout pixels, along the frame's axes (the light does not turn with the layer); animatable"
            ),
            Parameter(
                Key.y, .number(offsetRange), default: .number(0),
                help:
                    "offset downwards in layout pixels; with x = 0 and y = 0 the shadow is a glow; animatable"
            ),
            Parameter(
                Key.inner, .boolean, default: .boolean(false),
                help: "an inner shadow: inside the layer's shape, drawn over it and clipped to its alpha"),
        ]), shorthand: Key.radius.name
    ) { p, _, _ in
        ShadowEffect(
            color: p[Key.color], radius: p[Key.radius], x: p[Key.x], y: p[Key.y],
            inner: p[Key.inner])
    }

    /// The shadow at `time` in frame pixels (`lengthScale`: frame pixels per layout pixel, so a
    /// draft's shadow shrinks with it); nil when it is invisible.
    func cast(at time: Double, lengthScale: Double) -> ShadowCast? {
        let c = color.value(at: time)
        guard c.a > 0 else { return nil }
        let alpha = min(max(c.a, 0), 1)
        let premultiplied = SIMD4<Float>(
            Float(min(max(c.r, 0), 1) * alpha), Float(min(max(c.g, 0), 1) * alpha),
            Float(min(max(c.b, 0), 1) * alpha), Float(alpha))
        return ShadowCast(
            color: premultiplied, radius: max(radius.value(at: time), 0) * lengthScale,
            offset: SIMD2(x.value(at: time), y.value(at: time)) * lengthScale, inner: inner)
    }
}
