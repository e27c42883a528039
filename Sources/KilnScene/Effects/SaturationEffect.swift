import KilnModel
import KilnRaster

/// SwiftUI's `saturation(_:)`: 0 = grey, 1 = identity, > 1 = more saturated.
public struct SaturationEffect: ColorEffect {
    public let amount: Animated<Double>

    public init(amount: Animated<Double>) { self.amount = amount }

    enum Key {
        static let amount = ParameterKey<Animated<Double>>("amount")
    }

    public static let kind = EffectKind(
        name: "saturation", summary: "moves colour away from or towards its luma",
        parameters: ParameterTable([
            Parameter(
                Key.amount, .number(0...10), default: .number(1),
                help: "0 = grey, 1 = unchanged, > 1 = more saturated (about Rec. 709 luma)")
        ]), shorthand: Key.amount.name
    ) { p, _, _ in SaturationEffect(amount: p[Key.amount]) }

    public func matrix(at time: Double) -> ColorMatrix { Self.matrix(amount: amount.value(at: time)) }

    public static func matrix(amount: Double) -> ColorMatrix { saturationMatrix(amount) }
}
