/// A value sampled every `step` seconds of the timeline from `start`, read between samples
/// linearly and held past either end: the form an audio-driven value takes once the soundtrack
/// has been analysed while the job loaded.
public struct SampledCurve<Value: Interpolatable>: Sendable {
    public let start: Double
    public let step: Double
    /// At least one.
    public let values: [Value]

    public init(start: Double, step: Double, values: [Value]) {
        precondition(!values.isEmpty && step > 0, "a sampled curve needs values and a positive step")
        self.start = start
        self.step = step
        self.values = values
    }

    public func value(at time: Double) -> Value {
        let position = (time - start) / step
        guard position > 0 else { return values[0] }
        guard position < Double(values.count - 1) else { return values[values.count - 1] }
        let index = Int(position)
        return Value.interpolate(values[index], values[index + 1], position - Double(index))
    }
}
