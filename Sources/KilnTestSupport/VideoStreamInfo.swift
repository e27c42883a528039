/// What `VideoDecodeBack` found in a file's first video stream.
public struct VideoStreamInfo: Sendable {
    public var codecName: String
    public var width: Int
    public var height: Int
    public var pixelFormat: String
    /// Stream r_frame_rate (avg_frame_rate if r_frame_rate is unset).
    public var frameRateNumerator: Int
    public var frameRateDenominator: Int
    public var colorPrimaries: String
    public var colorTransfer: String
    public var colorSpace: String
    public var colorRange: String
    public var decodedFrameCount: Int
    /// send/receive errors plus frames flagged corrupt or with decode_error_flags.
    public var decodeErrors: Int
    public var containerDurationSeconds: Double
    public var streamDurationSeconds: Double
    /// Per decoded frame, seconds, in output order.
    public var presentationTimestamps: [Double]
    /// Output-order indices of frames whose packet carried AV_PKT_FLAG_KEY.
    public var keyFrameIndices: [Int]
    public var hasAudio: Bool
}
