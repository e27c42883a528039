/// Encoder settings for `VideoFileWriter`.
public struct VideoSettings: Sendable, Hashable {
    public var codec: VideoCodec
    /// Even for H.264 and HEVC, whose 4:2:0 colour comes in 2×2 blocks.
    public var width: Int
    public var height: Int
    public var frameRateNumerator: Int
    public var frameRateDenominator: Int
    public var crf: Double
    /// x264/x265 preset name, e.g. "veryfast", "medium", or libvpx's deadline (realtime, good, best).
    public var preset: String
    /// Maximum GOP length (x264 keyint).
    public var gop: Int
    /// 0 lets libx264 choose.
    public var encoderThreads: Int
    /// Moves `moov` before `mdat` so players can start before the whole file is read.
    public var faststart: Bool
    /// GIF only: the most bytes the file may take; frames are left out (their time given to the
    /// frame before) to stay within it. Nil: no limit.
    public var maxBytes: Int?
    /// How many frames will be appended, if known: a GIF's byte budget is spread over them.
    public var expectedFrames = 0

    public init(
        width: Int, height: Int, frameRateNumerator: Int, frameRateDenominator: Int,
        crf: Double = 18, preset: String = "medium", gop: Int = 60, encoderThreads: Int = 0,
        faststart: Bool = true, codec: VideoCodec = .h264
    ) {
        self.codec = codec
        self.width = width
        self.height = height
        self.frameRateNumerator = frameRateNumerator
        self.frameRateDenominator = frameRateDenominator
        self.crf = crf
        self.preset = preset
        self.gop = gop
        self.encoderThreads = encoderThreads
        self.faststart = faststart
    }

    /// libwebp's lossy quality (0…100) for animated WebP: high enough that gradients do not band.
    public static let webPQuality = 90

    func validate() throws(MediaError) {
        func fail(_ message: String) -> MediaError { .failure("VideoSettings", message) }
        guard width > 0, height > 0 else {
            throw fail("width and height must be positive, got \(width)x\(height)")
        }
        if codec == .h264 || codec == .hevc, width % 2 != 0 || height % 2 != 0 {
            throw fail("\(codec.encoderName) needs even sides for 4:2:0, got \(width)x\(height)")
        }
        guard frameRateNumerator > 0, frameRateDenominator > 0,
            frameRateNumerator <= Int(Int32.max), frameRateDenominator <= Int(Int32.max)
        else {
            throw fail("invalid frame rate \(frameRateNumerator)/\(frameRateDenominator)")
        }
        guard gop > 0 else { throw fail("gop must be positive, got \(gop)") }
        guard encoderThreads >= 0 else { throw fail("encoderThreads must be >= 0") }
        guard crf.isFinite, crf >= 0 else { throw fail("invalid crf \(crf)") }
        if let maxBytes, maxBytes <= 0 { throw fail("maxBytes must be positive, got \(maxBytes)") }
    }
}
