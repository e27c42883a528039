import KilnModel
import KilnRaster

/// SwiftUI's `opacity(_:)` as an effect stage, so it can sit between other stages.
public struct OpacityEffect: ColorEffect {
    public let amount: Animated<Double>

    public init(amount: Animated<Double>) { self.amount = amount }

    enum Key {
        static let amount = ParameterKey<Animated<Double>>("amount")
    }

    public static let kind = EffectKind(
        name: "opacity", summary: "multiplies alpha",
        parameters: ParameterTable([
            Parameter(Key.amount, .number(0...1), default: .number(1), help: "0 = invisible, 1 = unchanged")
        ]), shorthand: Key.amount.name
    ) { p, _, _ in OpacityEffect(amount: p[Key.amount]) }

    public func matrix(at time: Double) -> ColorMatrix {
        let k = amount.value(at: time)
        return ColorMatrix(rows: [[k, 0, 0, 0], [0, k, 0, 0], [0, 0, k, 0], [0, 0, 0, k]])
    }
}
