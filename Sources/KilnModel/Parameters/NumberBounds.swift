/// The numbers a hand-decoded key accepts, with open or closed ends (a spring's response is in
/// (0, 10]), held as data so the decoder's check and the schema's bounds cannot disagree.
public struct NumberBounds: Sendable {
    public let lower: Double
    public let upper: Double
    public let excludesLower: Bool
    public let excludesUpper: Bool

    public init(_ range: ClosedRange<Double>, excludesLower: Bool = false, excludesUpper: Bool = false) {
        self.lower = range.lowerBound
        self.upper = range.upperBound
        self.excludesLower = excludesLower
        self.excludesUpper = excludesUpper
    }

    public func contains(_ value: Double) -> Bool {
        (excludesLower ? value > lower : value >= lower) && (excludesUpper ? value < upper : value <= upper)
    }
}
