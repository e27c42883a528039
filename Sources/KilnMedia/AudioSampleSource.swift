/// A source of timeline audio in `AudioFormat`, pulled in order from sample 0; it never runs out
/// (silence after its content), so the writer decides the length.
public protocol AudioSampleSource: AnyObject {
    /// Fills `count` samples of each channel, continuing where the last call stopped.
    func fill(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int)
        throws(MediaError)
}
