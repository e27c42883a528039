import KilnModel
import KilnRaster

/// SwiftUI's `grayscale(_:)`: 0 = identity, 1 = fully grey.
public struct GrayscaleEffect: ColorEffect {
    public let amount: Animated<Double>

    public init(amount: Animated<Double>) { self.amount = amount }

    enum Key {
        static let amount = ParameterKey<Animated<Double>>("amount")
    }

    public static let kind = EffectKind(
        name: "grayscale", summary: "mixes colour towards its luma",
        parameters: ParameterTable([
            Parameter(Key.amount, .number(0...1), default: .number(1), help: "0 = unchanged, 1 = grey")
        ]), shorthand: Key.amount.name
    ) { p, _, _ in GrayscaleEffect(amount: p[Key.amount]) }

    public func matrix(at time: Double) -> ColorMatrix { Self.matrix(amount: amount.value(at: time)) }

    public static func matrix(amount: Double) -> ColorMatrix { saturationMatrix(1 - amount) }
}
