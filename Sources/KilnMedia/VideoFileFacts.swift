import CFFmpeg

/// What a finished MP4 says about itself, read from its header (no frame is decoded): what a
/// reviewer checks before watching it.
public struct VideoFileFacts: Sendable, Equatable {
    public var codec: String
    public var width: Int
    public var height: Int
    public var pixelFormat: String
    public var colorPrimaries: String
    public var colorTransfer: String
    public var colorSpace: String
    public var colorRange: String
    /// The video stream's duration (the container's when the stream has none).
    public var durationSeconds: Double
    /// Frames by the container's sample table; 0 when it does not say.
    public var frameCount: Int
    public var frameRateNumerator: Int
    public var frameRateDenominator: Int
    /// The first audio stream's codec, or nil for a silent file.
    public var audioCodec: String?

    public var frameRate: Double {
        frameRateDenominator > 0 ? Double(frameRateNumerator) / Double(frameRateDenominator) : 0
    }
}

extension VideoFileFacts {
    /// Opens `path` with libavformat and reads its best video stream's parameters. Throws for a file
    /// that cannot be opened or has no video stream.
    public static func probe(path: String) throws(MediaError) -> VideoFileFacts {
        var context: UnsafeMutablePointer<AVFormatContext>?
        // avformat_open_input frees the context itself on failure.
        try check(avformat_open_input(&context, path, nil, nil), "avformat_open_input")
        defer { avformat_close_input(&context) }
        guard let context else { throw MediaError.failure("avformat_open_input", "\(path): returned NULL") }
        // The MP4 header has everything read here; stream info fills in what a header left unset.
        try check(avformat_find_stream_info(context, nil), "avformat_find_stream_info")
        let streams = UnsafeBufferPointer(
            start: context.pointee.streams, count: Int(context.pointee.nb_streams))
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, let stream = streams[Int(index)] else {
            throw MediaError.failure("VideoFileFacts", "\(path): no video stream")
        }
        let parameters = stream.pointee.codecpar.pointee
        var rate = stream.pointee.avg_frame_rate
        if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.r_frame_rate }
        let audio = streams.first { $0?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
        let streamSeconds =
            stream.pointee.duration == kiln_av_nopts_value()
            ? 0 : Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
        let containerSeconds =
            context.pointee.duration == kiln_av_nopts_value()
            ? 0 : Double(context.pointee.duration) / Double(AV_TIME_BASE)
        return VideoFileFacts(
            codec: name(avcodec_get_name(parameters.codec_id)), width: Int(parameters.width),
            height: Int(parameters.height),
            pixelFormat: name(av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format))),
            colorPrimaries: name(av_color_primaries_name(parameters.color_primaries)),
            colorTransfer: name(av_color_transfer_name(parameters.color_trc)),
            colorSpace: name(av_color_space_name(parameters.color_space)),
            colorRange: name(av_color_range_name(parameters.color_range)),
            durationSeconds: streamSeconds > 0 ? streamSeconds : containerSeconds,
            frameCount: Int(max(0, stream.pointee.nb_frames)),
            frameRateNumerator: Int(max(0, rate.num)), frameRateDenominator: Int(max(0, rate.den)),
            audioCodec: audio.flatMap {
                $0.map { name(avcodec_get_name($0.pointee.codecpar.pointee.codec_id)) }
            })
    }

    private static func name(_ cString: UnsafePointer<CChar>?) -> String {
        cString.map { String(cString: $0) } ?? "unknown"
    }
}
