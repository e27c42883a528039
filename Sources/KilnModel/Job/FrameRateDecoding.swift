/// Decodes `"fps"`: a number, or a string `"num/den"` for exact rates.
enum FrameRateDecoding {
    /// Decimal spellings of the NTSC rates mean the exact broadcast rates, which is what every
    /// user typing 29.97 wants.
    static let ntscRates: [(Double, Rational)] = [
        (23.976, Rational(numerator: 24000, denominator: 1001)!),
        (29.97, Rational(numerator: 30000, denominator: 1001)!),
        (59.94, Rational(numerator: 60000, denominator: 1001)!),
    ]

    /// Keeps n·den well inside Int for every frame index the loader allows.
    static let maximumDenominator = 1_000_000

    static func decode(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> Rational? {
        let rate: Rational
        switch node.value {
        case .number(let value):
            guard let decimal = fromDecimal(value), decimal.numerator > 0 else {
                context.error(rangeMessage(NumberText.format(value)), at: node, path: path)
                return nil
            }
            rate = decimal
        case .string(let text):
            // Rational reduces "-30/-1" to 30/1; a rate written with a negative part is a mistake.
            guard !text.contains("-") else {
                context.error(
                    "invalid frame rate '\(text)'; the numerator and denominator must be positive",
                    at: node, path: path)
                return nil
            }
            guard let parsed = Rational(parsing: text) else {
                context.error(
                    "invalid frame rate '\(text)'; expected a number or \"numerator/denominator\" "
                        + "with a non-zero denominator, e.g. \"30000/1001\"",
                    at: node, path: path)
                return nil
            }
            rate = parsed
        default:
            context.error(
                "expected a frame rate (a number or a string like \"30000/1001\"), got \(node.value.typeName)",
                at: node, path: path)
            return nil
        }
        guard rate.denominator <= maximumDenominator else {
            context.error(
                "frame rate denominator \(rate.denominator) is too large (at most \(maximumDenominator))",
                at: node, path: path)
            return nil
        }
        guard rate.numerator > 0, rate.numerator <= OutputSettings.maximumFrameRate * rate.denominator else {
            context.error(rangeMessage(rate.description), at: node, path: path)
            return nil
        }
        return rate
    }

    /// A positive number up to the limit, or "n" / "n/d" with positive whole parts (the limit and
    /// the denominator's bound are checked on the value, not the text).
    static let schema = JSONSchema.anyOf([
        ValueSchema.boundedNumber(
            NumberBounds(0...Double(OutputSettings.maximumFrameRate), excludesLower: true)),
        .pattern(#"^\s*\+?0*[1-9][0-9]*\s*(?:/\s*\+?0*[1-9][0-9]*\s*)?$"#),
        ValueSchema.interpolated, ValueSchema.variable,
    ])

    static func fromDecimal(_ value: Double) -> Rational? {
        guard value > 0, value <= Double(OutputSettings.maximumFrameRate) else { return nil }
        if value == value.rounded() { return Rational(numerator: Int(value), denominator: 1) }
        if let ntsc = ntscRates.first(where: { $0.0 == value }) { return ntsc.1 }
        return Rational(numerator: Int((value * 1000).rounded()), denominator: 1000)
    }

    static func rangeMessage(_ written: String) -> String {
        "frame rate must be > 0 and ≤ \(OutputSettings.maximumFrameRate), got \(written)"
    }
}
