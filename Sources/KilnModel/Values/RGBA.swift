/// A colour as straight (not premultiplied) sRGB-encoded components in 0…1.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    public var r: Double
    public var g: Double
    public var b: Double
    public var a: Double

    public init(r: Double, g: Double, b: Double, a: Double) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
    public static let black = RGBA(r: 0, g: 0, b: 0, a: 1)
    public static let white = RGBA(r: 1, g: 1, b: 1, a: 1)

    /// Every written form a colour string may take, for error messages.
    public static let writtenForms =
        "\"#rgb\", \"#rgba\", \"#rrggbb\", \"#rrggbbaa\", a CSS colour name such as \"coral\" or \"transparent\", or [r, g, b] / [r, g, b, a] in 0…1"

    /// Parses `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (hex digits in either case; one digit d
    /// stands for dd, as in CSS).
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.first == UInt8(ascii: "#"), [4, 5, 7, 9].contains(digits.count) else { return nil }
        let values = digits.dropFirst().map(Self.hexValue)
        guard values.allSatisfy({ $0 != nil }) else { return nil }
        let nibbles: [Int] = values.map { $0! }
        let short = digits.count <= 5
        var components: [Double] = []
        var i = 0
        while i < nibbles.count {
            let byte: Int = short ? nibbles[i] * 17 : nibbles[i] * 16 + nibbles[i + 1]
            components.append(Double(byte) / 255)
            i += short ? 1 : 2
        }
        self.init(
            r: components[0], g: components[1], b: components[2], a: components.count == 4 ? components[3] : 1
        )
    }

    /// A hex form (`init(hex:)`) or a CSS colour name, in any case.
    public init?(css text: String) {
        if text.hasPrefix("#") {
            self.init(hex: text)
            return
        }
        let name = text.lowercased()
        if name == "transparent" {
            self = .clear
            return
        }
        guard let value = CSSColorNames.values[name] else { return nil }
        self.init(
            r: Double(value >> 16 & 0xFF) / 255, g: Double(value >> 8 & 0xFF) / 255,
            b: Double(value & 0xFF) / 255,
            a: 1)
    }

    /// The CSS colour names, for suggestions.
    public static var cssNames: [String] { CSSColorNames.sortedNames }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    public var description: String {
        "[\(NumberText.format(r)), \(NumberText.format(g)), \(NumberText.format(b)), \(NumberText.format(a))]"
    }
}

extension RGBA: Interpolatable {
    /// Blends with premultiplied alpha, as CSS does: fading from a transparent colour must not
    /// tint the result with that colour's (invisible) RGB.
    public static func interpolate(_ a: RGBA, _ b: RGBA, _ t: Double) -> RGBA {
        let alpha = Double.interpolate(a.a, b.a, t)
        guard abs(alpha) > 1e-12 else {
            return RGBA(
                r: Double.interpolate(a.r, b.r, t), g: Double.interpolate(a.g, b.g, t),
                b: Double.interpolate(a.b, b.b, t), a: alpha)
        }
        func blend(_ x: Double, _ y: Double) -> Double {
            Double.interpolate(x * a.a, y * b.a, t) / alpha
        }
        return RGBA(r: blend(a.r, b.r), g: blend(a.g, b.g), b: blend(a.b, b.b), a: alpha)
    }
}
