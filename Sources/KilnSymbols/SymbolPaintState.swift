import KilnRaster

/// The painting properties in effect at one element: SVG's inherited properties as its
/// ancestors and its own attributes and `style` set them, plus what does not inherit but
/// accumulates down the tree (the transform, group opacity).
struct SymbolPaintState {
    var fills = true
    var fillRule = FillRule.nonZero
    var strokes = false
    var strokeWidth = 1.0
    var lineCap = LineCap.butt
    var lineJoin = LineJoin.miter
    var miterLimit = 4.0
    var fillOpacity = 1.0
    var strokeOpacity = 1.0
    var visible = true
    /// The product of the ancestors' `opacity`.
    var ancestorOpacity = 1.0
    /// The element's own `opacity`.
    var ownOpacity = 1.0
    /// The parent's own `opacity`, which `opacity: inherit` takes.
    var parentOpacity = 1.0
    /// `display: none`: the element and everything in it is not drawn (does not inherit, but
    /// nothing below a hidden element is visited).
    var displayed = true
    /// From the element's local space to the normalised viewBox.
    var transform = Affine2D.identity

    /// The element's and its ancestors' `opacity` together (group opacity is applied to each
    /// shape, which differs from SVG only where shapes of one group overlap).
    var opacity: Double { ancestorOpacity * ownOpacity }

    /// Properties that do not inherit start from their initial values on every element.
    func forChild() -> SymbolPaintState {
        var child = self
        child.ancestorOpacity = opacity
        child.parentOpacity = ownOpacity
        child.ownOpacity = 1
        child.displayed = true
        return child
    }

    /// Properties whose only value Kiln can draw is `none`.
    static let noneOnly: Set<String> = [
        "clip-path", "mask", "filter", "marker", "marker-start", "marker-mid", "marker-end",
        "stroke-dasharray",
    ]

    /// Every property the reader interprets (the others, such as fonts or `color`, change nothing
    /// Kiln draws and are ignored).
    static let known: Set<String> = noneOnly.union([
        "fill", "fill-rule", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin",
        "stroke-miterlimit",
        "opacity", "fill-opacity", "stroke-opacity", "display", "visibility",
    ])

    /// Applies one declaration (from a presentation attribute or the `style` attribute).
    mutating func apply(_ property: String, _ rawValue: String) throws(SVGValueError) {
        let value = rawValue.trimmingASCIIWhitespace()
        if value == "inherit" {
            if property == "opacity" { ownOpacity = parentOpacity }
            return
        }
        switch property {
        case "fill": fills = try Self.paint(value, property)
        case "stroke": strokes = try Self.paint(value, property)
        case "fill-rule":
            switch value {
            case "nonzero": fillRule = .nonZero
            case "evenodd": fillRule = .evenOdd
            default: throw SVGValueError(message: "expected nonzero or evenodd, got '\(value)'")
            }
        case "stroke-width":
            let width = try SVGValues.length(value)
            guard width >= 0 else { throw SVGValueError(message: "must not be negative, got '\(value)'") }
            strokeWidth = width
        case "stroke-linecap":
            guard let cap = LineCap(rawValue: value) else {
                throw SVGValueError(message: "expected butt, round or square, got '\(value)'")
            }
            lineCap = cap
        case "stroke-linejoin":
            guard let join = LineJoin(rawValue: value) else {
                throw SVGValueError(message: "expected miter, round or bevel, got '\(value)'")
            }
            lineJoin = join
        case "stroke-miterlimit":
            let limit = try SVGValues.number(value)
            // Above the limit a miter's spike could reach far beyond the symbol.
            guard limit >= 1, limit <= SymbolLimits.miterLimit else {
                throw SVGValueError(
                    message: "must be from 1 to \(Int(SymbolLimits.miterLimit)), got '\(value)'")
            }
            miterLimit = limit
        case "opacity": ownOpacity = try SVGValues.opacity(value)
        case "fill-opacity": fillOpacity = try SVGValues.opacity(value)
        case "stroke-opacity": strokeOpacity = try SVGValues.opacity(value)
        case "display": displayed = value != "none"
        case "visibility":
            switch value {
            case "visible": visible = true
            case "hidden", "collapse": visible = false
            default: throw SVGValueError(message: "expected visible, hidden or collapse, got '\(value)'")
            }
        default:
            if Self.noneOnly.contains(property), value != "none" {
                throw SVGValueError(message: "is not supported in a symbol (only none), got '\(value)'")
            }
        }
    }

    /// Whether a paint (`fill`, `stroke`) paints: `none` does not; a colour does (its value is
    /// the symbol layer's to choose); paint servers (gradients, patterns) are refused.
    private static func paint(_ value: String, _ property: String) throws(SVGValueError) -> Bool {
        if value == "none" { return false }
        if value.hasPrefix("url(") {
            throw SVGValueError(
                message:
                    "is \(value): gradients and patterns are not supported in a symbol (the symbol layer colours it)"
            )
        }
        guard !value.isEmpty else { throw SVGValueError(message: "is empty: expected none or a colour") }
        return true
    }
}

extension String {
    func trimmingASCIIWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" || first == "\n" || first == "\r" {
            scalars.removeFirst()
        }
        while let last = scalars.last, last == " " || last == "\t" || last == "\n" || last == "\r" {
            scalars.removeLast()
        }
        return String(scalars)
    }
}
