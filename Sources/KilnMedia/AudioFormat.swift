/// The one audio format Kiln mixes and encodes in: 48 kHz, stereo, 32-bit float, planar (the AAC
/// encoder's native layout, so nothing is converted between the mix and the encoder).
public enum AudioFormat {
    public static let sampleRate = 48_000
    public static let channels = 2
}
