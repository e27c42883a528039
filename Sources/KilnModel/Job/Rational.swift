/// An exact ratio, used for frame rates so that NTSC rates (30000/1001) never drift.
public struct Rational: Sendable, Hashable, CustomStringConvertible {
    public let numerator: Int
    /// Always > 0; the fraction is kept reduced.
    public let denominator: Int

    public init?(numerator: Int, denominator: Int) {
        guard denominator != 0, numerator != .min, denominator != .min else { return nil }
        let divisor = Self.gcd(abs(numerator), abs(denominator))
        let sign = denominator < 0 ? -1 : 1
        self.numerator = sign * numerator / divisor
        self.denominator = sign * denominator / divisor
    }

    /// Parses `"30000/1001"` or an integer such as `"30"`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.trimmingWhitespace() }
        switch parts.count {
        case 1:
            guard let numerator = Int(parts[0]) else { return nil }
            self.init(numerator: numerator, denominator: 1)
        case 2:
            guard let numerator = Int(parts[0]), let denominator = Int(parts[1]) else { return nil }
            self.init(numerator: numerator, denominator: denominator)
        default:
            return nil
        }
    }

    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    /// `"30000/1001"`, or just `"30"` for whole numbers.
    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return max(a, 1)
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
