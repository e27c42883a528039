/// Formats numbers in messages the way users wrote them: `12`, not `12.0`.
enum NumberText {
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        if value == .infinity { return "∞" }
        if value == -.infinity { return "-∞" }
        return String(value)
    }

    static func format(_ range: ClosedRange<Double>) -> String {
        "\(format(range.lowerBound))…\(format(range.upperBound))"
    }

    static func format(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound)…\(range.upperBound)"
    }
}
