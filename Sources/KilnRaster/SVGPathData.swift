/// SVG path data (`M L H V C S Q T A Z`, absolute and relative, implicit repeats, exponent numbers,
/// flags without separators as SVG allows).
public enum SVGPathData {
    /// More elements than this is refused: path data is untrusted and each element costs
    /// memory and flattening time.
    public static let maximumElements = 1_000_000

    public static func parse(_ text: String) throws(SVGPathSyntaxError) -> VectorPath {
        var bytes = Array(text.utf8)
        // A terminator so the scanner can look one byte ahead without bounds checks.
        bytes.append(0)
        var parser = SVGPathParser(bytes: bytes)
        return try parser.run()
    }
}

/// The scanner and interpreter behind `SVGPathData.parse`, over the UTF-8 bytes (offsets are
/// converted to Unicode scalars only for an error).
struct SVGPathParser {
    let bytes: [UInt8]
    var position = 0
    var path = VectorPath()
    /// The last command's second control point, for S and T reflections.
    var lastCubicControl: SIMD2<Double>?
    var lastQuadControl: SIMD2<Double>?

    init(bytes: [UInt8]) { self.bytes = bytes }

    var end: Int { bytes.count - 1 }

    func error(_ message: String, at byte: Int? = nil) -> SVGPathSyntaxError {
        let upTo = min(byte ?? position, end)
        var scalars = 0
        for i in 0..<upTo where bytes[i] & 0xC0 != 0x80 { scalars += 1 }
        return SVGPathSyntaxError(offset: scalars, message: message)
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    mutating func skipSpaces() {
        while Self.isSpace(bytes[position]) { position += 1 }
    }

    /// Whitespace, then at most one comma and more whitespace.
    mutating func skipSeparator() {
        skipSpaces()
        if bytes[position] == UInt8(ascii: ",") {
            position += 1
            skipSpaces()
        }
    }

    func startsNumber() -> Bool {
        let b = bytes[position]
        return Self.isDigit(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
    }

    mutating func run() throws(SVGPathSyntaxError) -> VectorPath {
        skipSpaces()
        guard position < end else { return path }
        var command: UInt8 = 0
        var first = true
        while true {
            skipSpaces()
            if position >= end { break }
            let b = bytes[position]
            if Self.isCommand(b) {
                command = b
                position += 1
                if first && command | 0x20 != UInt8(ascii: "m") {
                    throw error("path data must start with 'M' or 'm'", at: position - 1)
                }
                first = false
                try execute(command)
            } else if command != 0 && command | 0x20 != UInt8(ascii: "z") && startsNumber() {
                // Implicit repetition; after a move the repeats are lines.
                if command == UInt8(ascii: "M") { command = UInt8(ascii: "L") }
                if command == UInt8(ascii: "m") { command = UInt8(ascii: "l") }
                try execute(command)
            } else if first {
                throw error("path data must start with 'M' or 'm'")
            } else if command | 0x20 == UInt8(ascii: "z") {
                throw error("expected a command letter after '\(Character(Unicode.Scalar(command)))'")
            } else {
                throw error(
                    "expected a command letter or a number after '\(Character(Unicode.Scalar(command)))'")
            }
            if path.elements.count > SVGPathData.maximumElements {
                throw error("path data has more than \(SVGPathData.maximumElements) elements")
            }
        }
        return path
    }

    static func isCommand(_ b: UInt8) -> Bool {
        switch b | 0x20 {
        case UInt8(ascii: "m"), UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "v"), UInt8(ascii: "c"),
            UInt8(ascii: "s"), UInt8(ascii: "q"), UInt8(ascii: "t"), UInt8(ascii: "a"), UInt8(ascii: "z"):
            return true
        default: return false
        }
    }

    mutating func number(after command: UInt8) throws(SVGPathSyntaxError) -> Double {
        skipSeparator()
        let start = position
        var negative = false
        if bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
            negative = bytes[position] == UInt8(ascii: "-")
            position += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var significant = 0
        var scale = 0
        while Self.isDigit(bytes[position]) {
            if significant < 19 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[position] - 0x30)
                if mantissa != 0 { significant += 1 }
            } else {
                scale += 1
            }
            digits += 1
            position += 1
        }
        if bytes[position] == UInt8(ascii: ".") {
            position += 1
            while Self.isDigit(bytes[position]) {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[position] - 0x30)
                    if mantissa != 0 { significant += 1 }
                    scale -= 1
                }
                digits += 1
                position += 1
            }
        }
        guard digits > 0 else {
            position = start
            throw error("expected a number after '\(Character(Unicode.Scalar(command)))'")
        }
        var exponent = 0
        let e = bytes[position]
        if e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            position += 1
            var exponentNegative = false
            if bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            guard Self.isDigit(bytes[position]) else {
                throw error("expected exponent digits after 'e'", at: position)
            }
            while Self.isDigit(bytes[position]) {
                // Beyond 99 999 the value is 0 or infinite anyway.
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[position] - 0x30) }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let value = try decimal(
            mantissa: mantissa, significant: significant, power: scale + exponent, from: start)
        guard value.isFinite else { throw error("number out of range", at: start) }
        return negative ? -value : value
    }

    /// mantissa · 10^power, exactly rounded: directly when both are exact in Double (Clinger's
    /// fast path), through the standard library's parser otherwise.
    func decimal(mantissa: UInt64, significant: Int, power: Int, from start: Int) throws(SVGPathSyntaxError)
        -> Double
    {
        if mantissa == 0 { return 0 }
        if mantissa < 1 << 53 && abs(power) <= 22 {
            let m = Double(mantissa)
            return power >= 0 ? m * Self.powersOfTen[power] : m / Self.powersOfTen[-power]
        }
        let text = "\(mantissa)e\(power)"
        guard let value = Double(text) else { throw error("malformed number", at: start) }
        return value
    }

    static let powersOfTen: [Double] = (0...22).map { n in
        var v = 1.0
        for _ in 0..<n { v *= 10 }
        return v
    }

    mutating func flag(after command: UInt8) throws(SVGPathSyntaxError) -> Bool {
        skipSeparator()
        switch bytes[position] {
        case UInt8(ascii: "0"):
            position += 1
            return false
        case UInt8(ascii: "1"):
            position += 1
            return true
        default:
            throw error("expected an arc flag (0 or 1) after '\(Character(Unicode.Scalar(command)))'")
        }
    }

    mutating func point(after command: UInt8, relative: Bool) throws(SVGPathSyntaxError) -> SIMD2<Double> {
        let x = try number(after: command)
        let y = try number(after: command)
        return relative ? path.currentPoint + SIMD2(x, y) : SIMD2(x, y)
    }

    mutating func execute(_ command: UInt8) throws(SVGPathSyntaxError) {
        let relative = command >= UInt8(ascii: "a")
        let current = path.currentPoint
        var cubicControl: SIMD2<Double>?
        var quadControl: SIMD2<Double>?
        switch command | 0x20 {
        case UInt8(ascii: "m"):
            path.move(to: try point(after: command, relative: relative))
        case UInt8(ascii: "l"):
            path.line(to: try point(after: command, relative: relative))
        case UInt8(ascii: "h"):
            let x = try number(after: command)
            path.line(to: SIMD2(relative ? current.x + x : x, current.y))
        case UInt8(ascii: "v"):
            let y = try number(after: command)
            path.line(to: SIMD2(current.x, relative ? current.y + y : y))
        case UInt8(ascii: "c"):
            let c1 = try point(after: command, relative: relative)
            let c2 = try point(after: command, relative: relative)
            let p = try point(after: command, relative: relative)
            path.curve(to: p, control1: c1, control2: c2)
            cubicControl = c2
        case UInt8(ascii: "s"):
            // The first control point reflects the previous C/S's second; otherwise it is the
            // current point.
            let c1 = lastCubicControl.map { 2 * current - $0 } ?? current
            let c2 = try point(after: command, relative: relative)
            let p = try point(after: command, relative: relative)
            path.curve(to: p, control1: c1, control2: c2)
            cubicControl = c2
        case UInt8(ascii: "q"):
            let c = try point(after: command, relative: relative)
            let p = try point(after: command, relative: relative)
            path.quadCurve(to: p, control: c)
            quadControl = c
        case UInt8(ascii: "t"):
            let c = lastQuadControl.map { 2 * current - $0 } ?? current
            let p = try point(after: command, relative: relative)
            path.quadCurve(to: p, control: c)
            quadControl = c
        case UInt8(ascii: "a"):
            let rx = try number(after: command)
            let ry = try number(after: command)
            let rotation = try number(after: command)
            let large = try flag(after: command)
            let sweep = try flag(after: command)
            let p = try point(after: command, relative: relative)
            path.arc(to: p, radii: SIMD2(rx, ry), rotation: rotation, largeArc: large, sweep: sweep)
        default:
            path.close()
        }
        lastCubicControl = cubicControl
        lastQuadControl = quadControl
        skipSeparator()
    }
}
