/// The one audio format Kiln mixes and encodes in: 48 kHz, stereo, 32-bit float, planar (the AAC
/// encoder's native layout, so nothing is converted between the mix and the encoder).
public enum AudioFormat {
    public static let sampleRate = 48_000
    public static let channels = 2
    /// Input sample rates Kiln resamples from. Real files stay within 8–768 kHz; a header
    /// claiming a rate far above (the fuzzer's WAV said 1.07 GHz) makes libswresample build a
    /// filter bank for that ratio, which takes minutes before a sample is read.
    public static let inputSampleRates: ClosedRange<Int32> = 1_000...768_000
}
