/// Conversions of computed coordinates and sizes to integers that cannot trap.
///
/// `Int(_:)` of a Double or Float traps on NaN, on ±infinity and past `Int.max`. Every number a
/// job gives is finite and bounded when it is decoded, but numbers computed from them are not: a
/// large scale times a large offset, an easing that overshoots, a degenerate transform whose
/// inverse divides by almost zero. A pixel rectangle, a size or an index computed from such
/// numbers goes through these conversions, so the worst a hostile job gets is an empty or
/// frame-sized rectangle, never a crash.
public enum SaturatingConversion {
    /// Results stay within ±`limit`: far beyond any frame or image Kiln allocates (those are
    /// bounded by the job's limits long before), and small enough that adding or multiplying two
    /// such numbers by a frame dimension does not overflow `Int`.
    public static let limit = 1 << 30

    /// `value` rounded by `rule`, clamped to ±`limit`; NaN gives `nan`.
    @inline(__always)
    public static func int(
        _ value: Double, _ rule: FloatingPointRoundingRule = .towardZero, nan: Int = 0
    ) -> Int {
        guard !value.isNaN else { return nan }
        let bound = Double(limit)
        return Int(Swift.min(Swift.max(value.rounded(rule), -bound), bound))
    }

    /// `value` rounded by `rule`, clamped to ±`limit`; NaN gives `nan`.
    @inline(__always)
    public static func int(
        _ value: Float, _ rule: FloatingPointRoundingRule = .towardZero, nan: Int = 0
    ) -> Int {
        guard !value.isNaN else { return nan }
        let bound = Float(limit)
        return Int(Swift.min(Swift.max(value.rounded(rule), -bound), bound))
    }

    /// `value` rounded by `rule` and clamped to `range`; NaN gives the range's lower bound.
    @inline(__always)
    public static func int(
        _ value: Double, _ rule: FloatingPointRoundingRule = .towardZero, in range: ClosedRange<Int>
    ) -> Int {
        Swift.min(Swift.max(int(value, rule, nan: range.lowerBound), range.lowerBound), range.upperBound)
    }

    /// `value` rounded by `rule` and clamped to `range`; NaN gives the range's lower bound.
    @inline(__always)
    public static func int(
        _ value: Float, _ rule: FloatingPointRoundingRule = .towardZero, in range: ClosedRange<Int>
    ) -> Int {
        Swift.min(Swift.max(int(value, rule, nan: range.lowerBound), range.lowerBound), range.upperBound)
    }
}
