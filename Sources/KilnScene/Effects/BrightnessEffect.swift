import KilnModel
import KilnRaster

/// SwiftUI's `brightness(_:)`: adds `amount` to each colour channel (−1…1; 0 is the identity).
public struct BrightnessEffect: ColorEffect {
    public let amount: Animated<Double>

    public init(amount: Animated<Double>) { self.amount = amount }

    enum Key {
        static let amount = ParameterKey<Animated<Double>>("amount")
    }

    public static let kind = EffectKind(
        name: "brightness", summary: "adds to every colour channel",
        parameters: ParameterTable([
            Parameter(
                Key.amount, .number(-1...1), default: .number(0), help: "added to r, g and b; 0 = unchanged")
        ]), shorthand: Key.amount.name
    ) { p, _, _ in BrightnessEffect(amount: p[Key.amount]) }

    public func matrix(at time: Double) -> ColorMatrix { Self.matrix(amount: amount.value(at: time)) }

    public static func matrix(amount k: Double) -> ColorMatrix {
        ColorMatrix(rows: [[1, 0, 0, k], [0, 1, 0, k], [0, 0, 1, k], [0, 0, 0, 1]])
    }
}
