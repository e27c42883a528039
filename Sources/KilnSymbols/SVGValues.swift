/// The scalar attribute and property values a symbol uses, parsed strictly: a symbol that says
/// something Kiln would draw differently from a browser is refused rather than guessed at.
enum SVGValues {
    /// A length in user units: a number, optionally followed by `px`.
    static func length(_ text: String) throws(SVGValueError) -> Double {
        var scanner = SVGNumberScanner(text)
        scanner.skipWhitespace()
        guard let value = try scanner.number() else {
            throw SVGValueError(message: "expected a length (a number, optionally with px), got '\(text)'")
        }
        let unit = scanner.identifier()
        scanner.skipWhitespace()
        guard unit.isEmpty || unit == "px", scanner.isAtEnd else {
            throw SVGValueError(
                message: "expected a length in user units (a number, optionally with px), got '\(text)'")
        }
        return value
    }

    /// A plain number.
    static func number(_ text: String) throws(SVGValueError) -> Double {
        var scanner = SVGNumberScanner(text)
        scanner.skipWhitespace()
        guard let value = try scanner.number() else {
            throw SVGValueError(message: "expected a number, got '\(text)'")
        }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw SVGValueError(message: "expected a number, got '\(text)'") }
        return value
    }

    /// An opacity: a number or a percentage, clamped to 0…1 as SVG does.
    static func opacity(_ text: String) throws(SVGValueError) -> Double {
        var scanner = SVGNumberScanner(text)
        scanner.skipWhitespace()
        guard var value = try scanner.number() else {
            throw SVGValueError(message: "expected an opacity (0…1 or a percentage), got '\(text)'")
        }
        if scanner.consume(UInt8(ascii: "%")) { value /= 100 }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else {
            throw SVGValueError(message: "expected an opacity (0…1 or a percentage), got '\(text)'")
        }
        return min(max(value, 0), 1)
    }

    /// `points` of a polyline or polygon: pairs of numbers.
    static func points(_ text: String) throws(SVGValueError) -> [SIMD2<Double>] {
        var scanner = SVGNumberScanner(text)
        var numbers: [Double] = []
        scanner.skipWhitespace()
        while !scanner.isAtEnd {
            numbers.append(try scanner.requiredNumber("a number"))
            scanner.skipCommaWhitespace()
        }
        guard numbers.count % 2 == 0 else {
            throw SVGValueError(
                message: "has an odd number of coordinates (\(numbers.count)): expected x,y pairs")
        }
        return stride(from: 0, to: numbers.count, by: 2).map { SIMD2(numbers[$0], numbers[$0 + 1]) }
    }
}
