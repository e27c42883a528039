import KilnModel
import KilnRaster

/// SwiftUI's `contrast(_:)`: scales colour about mid-grey (0 = flat grey, 1 = identity).
public struct ContrastEffect: ColorEffect {
    public let amount: Animated<Double>

    public init(amount: Animated<Double>) { self.amount = amount }

    enum Key {
        static let amount = ParameterKey<Animated<Double>>("amount")
    }

    public static let kind = EffectKind(
        name: "contrast", summary: "scales colour about mid-grey",
        parameters: ParameterTable([
            Parameter(
                Key.amount, .number(0...10), default: .number(1), help: "0 = grey, 1 = unchanged, > 1 = more")
        ]), shorthand: Key.amount.name
    ) { p, _, _ in ContrastEffect(amount: p[Key.amount]) }

    public func matrix(at time: Double) -> ColorMatrix { Self.matrix(amount: amount.value(at: time)) }

    public static func matrix(amount k: Double) -> ColorMatrix {
        let o = 0.5 * (1 - k)
        return ColorMatrix(rows: [[k, 0, 0, o], [0, k, 0, o], [0, 0, k, o], [0, 0, 0, 1]])
    }
}
