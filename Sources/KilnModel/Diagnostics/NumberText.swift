import Foundation

/// Formats numbers in messages the way users wrote them: `12`, not `12.0`.
public enum NumberText {
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        if value == .infinity { return "∞" }
        if value == -.infinity { return "-∞" }
        return String(value)
    }

    public static func format(_ range: ClosedRange<Double>) -> String {
        "\(format(range.lowerBound))…\(format(range.upperBound))"
    }

    public static func format(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound)…\(range.upperBound)"
    }

    /// Seconds to the microsecond without trailing zeros: 3 → "3", frame 89 at 30 fps → "2.966667".
    public static func seconds(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
