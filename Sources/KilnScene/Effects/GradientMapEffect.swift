import KilnModel
import KilnRaster

/// A colour effect: each pixel's luminance picks a colour from a gradient (dark → first colour,
/// bright → last), the classic photo "gradient map"; `amount` blends with the original.
public struct GradientMapEffect: PixelStageEffect {
    public let colors: [Animated<RGBA>]
    public let amount: Animated<Double>

    enum Key {
        static let colors = ParameterKey<[Animated<RGBA>]>("colors")
        static let amount = ParameterKey<Animated<Double>>("amount")
    }

    public static let kind = EffectKind(
        name: "gradientMap", summary: "maps luminance through a gradient of colours",
        parameters: ParameterTable([
            Parameter(
                Key.colors, .colorList,
                help:
                    "two or more colours, evenly spaced from dark to bright: the luma of the straight colour picks one, whose alpha multiplies the pixel's"
            ),
            Parameter(
                Key.amount, .number(0...1), default: .number(1), help: "0 = unchanged, 1 = fully mapped"),
        ])
    ) { p, path, context in
        let colors = p[Key.colors]
        guard colors.count >= 2 else {
            // A wrong type or a bad colour was reported by the table; a missing or short list
            // is reported here.
            let written = p.node(Key.colors)?.elements?.count
            if p.node(Key.colors) == nil || (written ?? 2) < 2 {
                context.error(
                    "a gradient map needs at least two colours, got \(written ?? 0)", at: p.node(Key.colors),
                    path: p.path(Key.colors))
            }
            return nil
        }
        return GradientMapEffect(colors: colors, amount: p[Key.amount])
    }

    public func stage(at time: Double, layerSize: SIMD2<Double>) -> (any PixelStage)? {
        let amount = amount.value(at: time)
        guard amount > 0 else { return nil }
        let stops = colors.map { $0.value(at: time) }
        return GradientMap(amount: Float(amount)) { position in
            let scaled = position * Double(stops.count - 1)
            let i = SaturatingConversion.int(scaled, in: 0...(stops.count - 2))
            let f = scaled - Double(i)
            let a = stops[i], b = stops[i + 1]
            return SIMD4(
                Float(a.r + (b.r - a.r) * f), Float(a.g + (b.g - a.g) * f), Float(a.b + (b.b - a.b) * f),
                Float(a.a + (b.a - a.a) * f))
        }
    }
}

/// Maps each pixel's luminance (Rec. 709 weights on straight colour) through a gradient: dark
/// pixels take the first colour, bright ones the last; the gradient's alpha multiplies the
/// pixel's. `amount` blends with the original.
public struct GradientMap: ColorStage {
    /// 257 straight RGBA entries for luminance 0, 1/256, …, 1.
    let table: Table
    public let amount: Float

    /// The entries in memory of their own, read through a pointer per lane: an array's bounds
    /// checks and a generic saturating conversion per lane cost more than the rest of the stage.
    final class Table: @unchecked Sendable {
        static let entries = 257
        let entries: UnsafeMutablePointer<SIMD4<Float>>

        init(_ color: (Double) -> SIMD4<Float>) {
            entries = .allocate(capacity: Self.entries)
            for i in 0..<Self.entries { (entries + i).initialize(to: color(Double(i) / 256)) }
        }

        deinit { entries.deallocate() }
    }

    /// `color(at:)` gives the gradient's straight colour at a position 0…1.
    public init(amount: Float, color: (Double) -> SIMD4<Float>) {
        table = Table(color)
        self.amount = amount
    }

    /// Each lane's table entry below its luminance and the weight of the entry above: position
    /// = luminance clamped to 0…1 × 256, entry ⌊position⌋ up to 255.
    @inline(__always)
    static func place(_ luma: SIMD8<Float>) -> (index: SIMD8<Int32>, fraction: SIMD8<Float>) {
        let position = between(luma, 0, 1) * 256
        let below = floorOfSmall(position).replacing(with: 255, where: position .>= 256)
        return (wholeNumberToInt(below), position - below)
    }

    /// A colour curve, which can steepen what it maps: not smooth at any scale.
    public var featureSize: Double? { nil }
    public var readsPosition: Bool { false }

    @inline(__always)
    public func apply(
        _ r: inout SIMD8<Float>, _ g: inout SIMD8<Float>, _ b: inout SIMD8<Float>, _ a: inout SIMD8<Float>,
        at _: PixelPosition
    ) {
        let inverse = (1 / a).replacing(with: 0, where: a .<= 0)
        let luma = (0.2126 * r + 0.7152 * g + 0.0722 * b) * inverse
        let (index, fraction) = Self.place(luma)
        let entries = table.entries
        var mr = SIMD8<Float>(), mg = SIMD8<Float>(), mb = SIMD8<Float>(), ma = SIMD8<Float>()
        for lane in 0..<8 {
            let p = entries + Int(index[lane])
            let c = p[0] + (p[1] - p[0]) * fraction[lane]
            (mr[lane], mg[lane], mb[lane], ma[lane]) = (c.x, c.y, c.z, c.w)
        }
        // Premultiplied by the gradient's alpha and the pixel's.
        let alpha = ma * a
        r += (mr * alpha - r) * amount
        g += (mg * alpha - g) * amount
        b += (mb * alpha - b) * amount
        a += (alpha - a) * amount
    }
}
