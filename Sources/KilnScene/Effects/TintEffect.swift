import KilnModel
import KilnRaster

/// A colour effect: tints the image with a colour, keeping its luminance (a duotone towards
/// black and `color`); `amount` blends with the original.
public struct TintEffect: ColorEffect {
    public let color: Animated<RGBA>
    public let amount: Animated<Double>

    enum Key {
        static let color = ParameterKey<Animated<RGBA>>("color")
        static let amount = ParameterKey<Animated<Double>>("amount")
    }

    public static let kind = EffectKind(
        name: "tint", summary: "tints towards a colour, keeping luminance",
        parameters: ParameterTable([
            Parameter(Key.color, .color, default: .color(RGBA(r: 1, g: 0.6, b: 0.2, a: 1)), help: "the tint"),
            Parameter(
                Key.amount, .number(0...1), default: .number(1),
                help: "0 = unchanged, 1 = fully tinted: color × luma, a duotone from black to the colour"),
        ])
    ) { p, _, _ in TintEffect(color: p[Key.color], amount: p[Key.amount]) }

    public func matrix(at time: Double) -> ColorMatrix {
        let c = color.value(at: time), k = amount.value(at: time)
        let tint = [c.r, c.g, c.b]
        let w = [lumaWeights.r, lumaWeights.g, lumaWeights.b]
        var rows: [[Double]] = []
        for i in 0..<3 {
            rows.append((0..<3).map { j in (1 - k) * (i == j ? 1 : 0) + k * tint[i] * w[j] } + [0])
        }
        return ColorMatrix(rows: rows + [[0, 0, 0, 1]])
    }
}
