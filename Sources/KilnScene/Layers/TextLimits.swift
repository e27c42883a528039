import KilnModel
import KilnRaster
import KilnText

/// The text limits, checked before shaping (the text's length: shaping a cluster costs the square
/// of its marks in HarfBuzz) and before drawing (the lines and the picture's area).
enum TextLimits {
    static func problem(text: String, limits: ResourceLimits) -> String? {
        let scalars = text.unicodeScalars.count
        if let problem = limits.violation(.textCharacters, scalars, "the text's length in Unicode scalars") {
            return problem
        }
        // Only a text with more scalars than characters can hold a long cluster.
        guard scalars > limits.count(.textClusterScalars) else { return nil }
        for character in text where character.unicodeScalars.count > limits.count(.textClusterScalars) {
            return limits.violation(
                .textClusterScalars, character.unicodeScalars.count,
                "one character's length in Unicode scalars (a letter with its combining marks)")
        }
        return nil
    }

    static func problem(layout: TextLayout, margin: Int, limits: ResourceLimits) -> String? {
        if let problem = limits.violation(.textLines, layout.lines.count, "the number of lines") {
            return problem
        }
        let width = (layout.size.x.rounded(.up) + Double(2 * margin)).clamped(0, 1e15)
        let height = (layout.size.y.rounded(.up) + Double(2 * margin)).clamped(0, 1e15)
        return limits.violation(
            .textPixels, width * height,
            "the text picture's size in pixels (\(SaturatingConversion.int(width))×\(SaturatingConversion.int(height)))"
        )
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double {
        Swift.min(Swift.max(self, low), high)
    }
}
