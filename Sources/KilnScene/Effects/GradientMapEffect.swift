import KilnModel
import KilnRaster

/// A colour effect: each pixel's luminance picks a colour from a gradient (dark → first colour,
/// bright → last), the classic photo "gradient map"; `amount` blends with the original.
public struct GradientMapEffect: PixelStageEffect {
    public let colors: [Animated<RGBA>]
    public let amount: Animated<Double>

    public static let kind = EffectKind(
        name: "gradientMap", summary: "maps luminance through a gradient of colours",
        parameters: ParameterTable([
            Parameter(
                "colors", .colorList,
                help:
                    "two or more colours, evenly spaced from dark to bright: the luma of the straight colour picks one, whose alpha multiplies the pixel's"
            ),
            Parameter("amount", .number(0...1), default: .number(1), help: "0 = unchanged, 1 = fully mapped"),
        ])
    ) { p, path, context in
        let colors = p.colors("colors")
        guard colors.count >= 2 else {
            // A wrong type or a bad colour was reported by the table; a missing or short list
            // is reported here.
            let written = p.node("colors")?.elements?.count
            if p.node("colors") == nil || (written ?? 2) < 2 {
                context.error(
                    "a gradient map needs at least two colours, got \(written ?? 0)", at: p.node("colors"),
                    path: p.path("colors"))
            }
            return nil
        }
        return GradientMapEffect(colors: colors, amount: p.number("amount"))
    }

    public func stage(at time: Double, layerSize: SIMD2<Double>) -> PixelStage? {
        let amount = amount.value(at: time)
        guard amount > 0 else { return nil }
        let stops = colors.map { $0.value(at: time) }
        return .gradientMap(
            GradientMap(amount: Float(amount)) { position in
                let scaled = position * Double(stops.count - 1)
                let i = SaturatingConversion.int(scaled, in: 0...(stops.count - 2))
                let f = scaled - Double(i)
                let a = stops[i], b = stops[i + 1]
                return SIMD4(
                    Float(a.r + (b.r - a.r) * f), Float(a.g + (b.g - a.g) * f), Float(a.b + (b.b - a.b) * f),
                    Float(a.a + (b.a - a.a) * f))
            })
    }
}

/// A colour effect: tints the image with a colour, keeping its luminance (a duotone towards
/// black and `color`); `amount` blends with the original.
public struct TintEffect: ColorEffect {
    public let color: Animated<RGBA>
    public let amount: Animated<Double>

    public static let kind = EffectKind(
        name: "tint", summary: "tints towards a colour, keeping luminance",
        parameters: ParameterTable([
            Parameter("color", .color, default: .color(RGBA(r: 1, g: 0.6, b: 0.2, a: 1)), help: "the tint"),
            Parameter(
                "amount", .number(0...1), default: .number(1),
                help: "0 = unchanged, 1 = fully tinted: color × luma, a duotone from black to the colour"),
        ])
    ) { p, _, _ in TintEffect(color: p.color("color"), amount: p.number("amount")) }

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
