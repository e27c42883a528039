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

    /// Parses `#rrggbb` or `#rrggbbaa` (hex digits in either case).
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var components: [Double] = []
        var index = 1
        while index < digits.count {
            guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1]) else {
                return nil
            }
            components.append(Double(high * 16 + low) / 255)
            index += 2
        }
        self.init(
            r: components[0], g: components[1], b: components[2], a: components.count == 4 ? components[3] : 1
        )
    }

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
