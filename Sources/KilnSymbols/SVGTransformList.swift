import Foundation
import KilnRaster

/// SVG's `transform` attribute: a list of `matrix`, `translate`, `scale`, `rotate`, `skewX`
/// and `skewY`, separated by whitespace and/or commas, applied right to left (the last one
/// first) as SVG 1.1 specifies.
enum SVGTransformList {
    static func parse(_ text: String) throws(SVGValueError) -> Affine2D {
        var scanner = SVGNumberScanner(text)
        var result = Affine2D.identity
        scanner.skipWhitespace()
        while !scanner.isAtEnd {
            let nameOffset = scanner.characterOffset
            let name = scanner.identifier()
            guard !name.isEmpty else {
                throw SVGValueError(message: "expected a transform name at offset \(nameOffset)")
            }
            scanner.skipWhitespace()
            guard scanner.consume(UInt8(ascii: "(")) else {
                throw SVGValueError(
                    message: "expected '(' after \(name) at offset \(scanner.characterOffset)")
            }
            var arguments: [Double] = []
            scanner.skipWhitespace()
            while let value = try scanner.number() {
                arguments.append(value)
                scanner.skipCommaWhitespace()
            }
            guard scanner.consume(UInt8(ascii: ")")) else {
                throw SVGValueError(
                    message: "expected a number or ')' in \(name)(…) at offset \(scanner.characterOffset)")
            }
            result = result.concatenating(try transform(name, arguments, at: nameOffset))
            scanner.skipCommaWhitespace()
        }
        return result
    }

    private static func transform(_ name: String, _ v: [Double], at offset: Int) throws(SVGValueError)
        -> Affine2D
    {
        func require(_ counts: Set<Int>, _ usage: String) throws(SVGValueError) {
            guard counts.contains(v.count) else {
                throw SVGValueError(
                    message:
                        "\(name) at offset \(offset) takes \(usage), got \(v.count) number\(v.count == 1 ? "" : "s")"
                )
            }
        }
        switch name {
        case "matrix":
            try require([6], "6 numbers (a b c d e f)")
            return Affine2D(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
        case "translate":
            try require([1, 2], "tx [ty]")
            return .translation(v[0], v.count == 2 ? v[1] : 0)
        case "scale":
            try require([1, 2], "sx [sy]")
            return .scale(v[0], v.count == 2 ? v[1] : v[0])
        case "rotate":
            try require([1, 3], "an angle [cx cy]")
            let (s, c) = sineCosine(degrees: v[0])
            let rotation = Affine2D.rotation(sin: s, cos: c)
            guard v.count == 3 else { return rotation }
            return Affine2D.translation(v[1], v[2]).concatenating(rotation).concatenating(
                .translation(-v[1], -v[2]))
        case "skewX":
            try require([1], "an angle")
            return .skew(tanX: try tangent(degrees: v[0], name), tanY: 0)
        case "skewY":
            try require([1], "an angle")
            return .skew(tanX: 0, tanY: try tangent(degrees: v[0], name))
        default:
            throw SVGValueError(
                message:
                    "unknown transform '\(name)' at offset \(offset) (expected matrix, translate, scale, rotate, skewX or skewY)"
            )
        }
    }

    /// Exact at multiples of 90°, so quarter turns leave coordinates exact.
    static func sineCosine(degrees: Double) -> (sin: Double, cos: Double) {
        let turns = degrees.truncatingRemainder(dividingBy: 360)
        if turns.truncatingRemainder(dividingBy: 90) == 0 {
            switch (Int(turns) + 360) % 360 {
            case 90: return (1, 0)
            case 180: return (0, -1)
            case 270: return (-1, 0)
            default: return (0, 1)
            }
        }
        let radians = turns * .pi / 180
        return (sin(radians), cos(radians))
    }

    private static func tangent(degrees: Double, _ name: String) throws(SVGValueError) -> Double {
        let (s, c) = sineCosine(degrees: degrees)
        guard abs(c) > 1e-9 else { throw SVGValueError(message: "\(name)(\(degrees)) is infinite") }
        return s / c
    }
}
