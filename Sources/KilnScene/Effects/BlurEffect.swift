import KilnModel
import KilnRaster

/// SwiftUI's `blur(radius:)`: a gaussian blur whose radius is the standard deviation in pixels
/// (as CSS `blur()`). It costs the same for any radius. A layer's blur stages combine into one
/// blur (variances add); colour stages written before the first blur apply before it, the others
/// after it.
public struct BlurEffect: EffectContent {
    public let radius: Animated<Double>

    public init(radius: Animated<Double>) { self.radius = radius }

    enum Key {
        static let radius = ParameterKey<Animated<Double>>("radius")
    }

    public static let kind = EffectKind(
        name: "blur", summary: "gaussian blur; cost independent of the radius",
        parameters: ParameterTable([
            Parameter(
                Key.radius, .number(ModifierProperty.blur.range), default: .number(0),
                help: "standard deviation in frame pixels (as CSS blur()); 0 = unchanged; animatable")
        ]), shorthand: Key.radius.name
    ) { p, _, _ in BlurEffect(radius: p[Key.radius]) }
}
