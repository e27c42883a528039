/// The text reveal of the source documents (`shared/seeds`: a SwiftUI `TextRenderer` transition):
/// `count` elements (lines or glyphs) each animate for `elementDuration`, their starts spread
/// evenly so that the first starts at 0 and the last ends at `totalDuration`.
public struct RevealTiming: Sendable, Hashable {
    public let count: Int
    public let elementDuration: Double
    public let totalDuration: Double

    public init(count: Int, elementDuration: Double, totalDuration: Double) {
        self.count = max(count, 0)
        self.totalDuration = max(totalDuration, 0)
        self.elementDuration = min(max(elementDuration, 0), self.totalDuration)
    }

    /// Seconds between the starts of consecutive elements.
    public var delay: Double {
        count > 1 ? (totalDuration - elementDuration) / Double(count - 1) : 0
    }

    public func start(of element: Int) -> Double { Double(element) * delay }

    /// Seconds `element` has been animating at `elapsed` seconds into the reveal, 0…elementDuration.
    public func time(of element: Int, at elapsed: Double) -> Double {
        min(max(elapsed - start(of: element), 0), elementDuration)
    }

    /// 0…1 through `element`'s own animation.
    public func progress(of element: Int, at elapsed: Double) -> Double {
        elementDuration > 0
            ? time(of: element, at: elapsed) / elementDuration : (elapsed >= start(of: element) ? 1 : 0)
    }
}
