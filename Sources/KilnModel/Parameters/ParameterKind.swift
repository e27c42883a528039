/// The type (and allowed range) of one parameter of a layer kind or of the output settings.
public enum ParameterKind: Sendable, CustomStringConvertible {
    /// Animatable.
    case number(ClosedRange<Double>)
    /// A plain number that shapes structure or timing (an interval in seconds): not animatable.
    /// Decoded values read like `number` (a constant animation).
    case constantNumber(ClosedRange<Double>)
    /// Not animatable: integers usually shape structure (grid sizes, counts).
    case integer(ClosedRange<Int>)
    case boolean
    case string
    /// A string from a fixed list.
    case choice([String])
    /// Animatable.
    case color
    /// Animatable; the optional range applies to each coordinate.
    case point(ClosedRange<Double>?)
    /// An array of animatable colours; absent means empty.
    case colorList
    /// An array of animatable points; absent means empty.
    case pointList(ClosedRange<Double>?)
    /// A string naming a file relative to the job file, which must exist.
    case assetPath
    /// A JSON value with a shape of its own (a list of trigger objects, a noise source) that the
    /// owner decodes from `DecodedParameters.node`; the text describes the shape for the docs and
    /// the schema for the job schema, written beside the decoder that reads it.
    case structured(String, schema: JSONSchema)

    public var isAnimatable: Bool {
        switch self {
        case .number, .color, .point, .colorList, .pointList: true
        case .constantNumber, .integer, .boolean, .string, .choice, .assetPath, .structured: false
        }
    }

    public var isList: Bool {
        switch self {
        case .colorList, .pointList: true
        default: false
        }
    }

    /// Short human description for `kiln layers` and docs, e.g. "number 0…1 (animatable)".
    public var description: String {
        let text: String
        switch self {
        case .number(let range), .constantNumber(let range): text = "number \(Self.rangeText(range))"
        case .integer(let range): text = "integer \(NumberText.format(range))"
        case .boolean: text = "boolean"
        case .string: text = "string"
        case .choice(let choices): text = "one of " + choices.joined(separator: ", ")
        case .color: text = "color"
        case .point(let range):
            text = "point [x, y]" + (range.map { " with x, y in \(Self.rangeText($0))" } ?? "")
        case .colorList: text = "array of colors"
        case .pointList(let range):
            text = "array of points" + (range.map { " with x, y in \(Self.rangeText($0))" } ?? "")
        case .assetPath: text = "file path"
        case .structured(let shape, _): text = shape
        }
        return isAnimatable ? text + " (animatable)" : text
    }

    private static func rangeText(_ range: ClosedRange<Double>) -> String {
        switch (range.lowerBound.isFinite, range.upperBound.isFinite) {
        case (true, true): NumberText.format(range)
        case (true, false): "≥ \(NumberText.format(range.lowerBound))"
        case (false, true): "≤ \(NumberText.format(range.upperBound))"
        case (false, false): "(any)"
        }
    }
}
