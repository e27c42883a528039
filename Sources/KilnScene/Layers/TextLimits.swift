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

extension TextLimits {
    /// A text picture's pixels at most: its layout box grown by the margin (the picture is cut
    /// to the ink, which never exceeds it).
    /// Within that, its glyphs' pens with room around them for any glyph (four times the font
    /// size, the margin being half of it): a text of many empty lines costs its ink, as
    /// `TextImage` allocates it.
    static func pictureArea(layout: TextLayout, margin: Int) -> (width: Double, height: Double) {
        let box = (
            (layout.size.x.rounded(.up) + Double(2 * margin)).clamped(1, 1e15),
            (layout.size.y.rounded(.up) + Double(2 * margin)).clamped(1, 1e15)
        )
        guard let first = layout.glyphs.first?.position else { return (1, 1) }
        var low = first, high = first
        for glyph in layout.glyphs {
            low = pointwiseMin(low, glyph.position)
            high = pointwiseMax(high, glyph.position)
        }
        let room = Double(8 * margin)
        return (
            Swift.min(box.0, (high.x - low.x + room).clamped(1, 1e15)),
            Swift.min(box.1, (high.y - low.y + room).clamped(1, 1e15))
        )
    }

    /// Bytes a drawn picture holds per pixel: RGBA8 texels, padded, with mip levels.
    static let heldBytesPerPixel = 4.0 * 4 / 3
    /// Bytes drawing one needs per pixel meanwhile: the Float coverage, the RGBA bytes and the
    /// packed texels.
    static let drawingBytesPerPixel = 12.0

    /// Charges `copies` pictures of a layout (a reveal's elements are a second copy of its ink)
    /// before any is drawn.
    static func chargePicture(
        layout: TextLayout, margin: Int, copies: Int, to budget: MemoryBudget, kind: MemoryBudget.Kind,
        at path: JSONPath
    ) -> Bool {
        let (width, height) = pictureArea(layout: layout, margin: margin)
        return budget.charge(
            kind, width * height * heldBytesPerPixel * Double(copies),
            briefly: width * height * drawingBytesPerPixel,
            "text picture \(SaturatingConversion.int(width))×\(SaturatingConversion.int(height))", at: path)
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double {
        Swift.min(Swift.max(self, low), high)
    }
}
