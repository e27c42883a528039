/// A value at a moment. The easing shapes the segment that ends here (arriving at this keyframe),
/// which is how most timeline tools attach curves; the first keyframe's easing is unused.
public struct Keyframe<Value: Interpolatable>: Sendable {
    public var time: Double
    public var value: Value
    public var easing: Easing

    public init(time: Double, value: Value, easing: Easing = .linear) {
        self.time = time
        self.value = value
        self.easing = easing
    }
}
