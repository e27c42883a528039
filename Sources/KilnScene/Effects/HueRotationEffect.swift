import Foundation
import KilnModel
import KilnRaster

/// SwiftUI's `hueRotation(_:)`: turns hue by `degrees` about the grey axis, with the SVG/CSS
/// hue-rotate matrix (which keeps luma with the spec's weights 0.213, 0.715, 0.072).
public struct HueRotationEffect: ColorEffect {
    public let degrees: Animated<Double>

    public init(degrees: Animated<Double>) { self.degrees = degrees }

    enum Key {
        static let degrees = ParameterKey<Animated<Double>>("degrees")
    }

    public static let kind = EffectKind(
        name: "hueRotation", summary: "rotates hue by degrees",
        parameters: ParameterTable([
            Parameter(
                Key.degrees, .number(-36_000...36_000), default: .number(0),
                help: "hue angle to add (the CSS/SVG hue-rotate matrix)")
        ]), shorthand: Key.degrees.name
    ) { p, _, _ in HueRotationEffect(degrees: p[Key.degrees]) }

    public func matrix(at time: Double) -> ColorMatrix { Self.matrix(degrees: degrees.value(at: time)) }

    public static func matrix(degrees: Double) -> ColorMatrix {
        let r = degrees * .pi / 180
        let (c, s) = (cos(r), sin(r))
        // The CSS / SVG feColorMatrix hueRotate coefficients, exactly as the spec writes them.
        return ColorMatrix(rows: [
            [0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928, 0],
            [0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283, 0],
            [0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072, 0],
            [0, 0, 0, 1],
        ])
    }
}
