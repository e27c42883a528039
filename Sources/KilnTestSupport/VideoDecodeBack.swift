import CFFmpeg
import KilnMedia

/// Decode-back for tests: opens an MP4 (or any file), reports the first video stream and decodes
/// every frame, as a player would see them.
public enum VideoDecodeBack {
    public static func decode(path: String, onFrame: ((DecodedFrame) -> Void)? = nil) throws(MediaError)
        -> VideoStreamInfo
    {
        let session = try DecodeSession(path: path)
        return try session.run(onFrame: onFrame)
    }

    /// Decodes every frame to straight-alpha RGBA8 (YUV read as BT.709 with the range the
    /// stream is tagged with), for formats that keep transparency or are RGB to begin with.
    public static func decodeRGBA(path: String) throws(MediaError) -> (
        info: VideoStreamInfo, frames: [DecodedRGBAFrame]
    ) {
        let session = try DecodeSession(path: path)
        var frames: [DecodedRGBAFrame] = []
        session.onRGBA = { frames.append($0) }
        let info = try session.run(onFrame: nil)
        return (info, frames)
    }
}

/// Owns the demuxer/decoder state of one decode-back pass.
private final class DecodeSession {
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var converted: UnsafeMutablePointer<AVFrame>?
    private var scaler: ScaleContext?
    private var rgbaScaler: ScaleContext?
    var onRGBA: ((DecodedRGBAFrame) -> Void)?
    private let stream: UnsafeMutablePointer<AVStream>

    private var decodeErrors = 0
    private var timestamps: [Double] = []
    private var keyFrameIndices: [Int] = []
    private var keyPacketTimestamps: Set<Int64> = []

    init(path: String) throws(MediaError) {
        // avformat_open_input frees the context itself on failure.
        try check(avformat_open_input(&formatContext, path, nil, nil), "avformat_open_input")
        guard let formatContext else { throw MediaError.failure("avformat_open_input", "returned NULL") }
        do throws(MediaError) {
            try check(avformat_find_stream_info(formatContext, nil), "avformat_find_stream_info")
            let index = try check(
                av_find_best_stream(formatContext, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0), "av_find_best_stream")
            stream = formatContext.pointee.streams[Int(index)]!
        } catch {
            avformat_close_input(&self.formatContext)
            throw error
        }
        let parameters = stream.pointee.codecpar!
        let decoder = try require(
            avcodec_find_decoder(parameters.pointee.codec_id), "avcodec_find_decoder",
            "no decoder for \(String(cString: avcodec_get_name(parameters.pointee.codec_id)))")
        codecContext = try require(avcodec_alloc_context3(decoder), "avcodec_alloc_context3")
        try check(avcodec_parameters_to_context(codecContext, parameters), "avcodec_parameters_to_context")
        codecContext!.pointee.pkt_timebase = stream.pointee.time_base
        try check(avcodec_open2(codecContext, decoder, nil), "avcodec_open2")
        packet = try require(av_packet_alloc(), "av_packet_alloc")
        frame = try require(av_frame_alloc(), "av_frame_alloc")
    }

    deinit {
        av_frame_free(&converted)
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codecContext)
        avformat_close_input(&formatContext)
    }

    func run(onFrame: ((DecodedFrame) -> Void)?) throws(MediaError) -> VideoStreamInfo {
        guard let formatContext, let codecContext, let packet else {
            fatalError("DecodeSession not initialised")
        }
        while true {
            let status = av_read_frame(formatContext, packet)
            if status == kiln_averror_eof() { break }
            try check(status, "av_read_frame")
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            if packet.pointee.flags & AV_PKT_FLAG_KEY != 0 { keyPacketTimestamps.insert(packet.pointee.pts) }
            if avcodec_send_packet(codecContext, packet) < 0 { decodeErrors += 1 }
            try receiveFrames(onFrame)
        }
        if avcodec_send_packet(codecContext, nil) < 0 { decodeErrors += 1 }
        try receiveFrames(onFrame)
        return info()
    }

    private func receiveFrames(_ onFrame: ((DecodedFrame) -> Void)?) throws(MediaError) {
        guard let codecContext, let frame else { return }
        while true {
            let status = avcodec_receive_frame(codecContext, frame)
            if status == kiln_averror_eagain() || status == kiln_averror_eof() { return }
            if status < 0 {
                decodeErrors += 1
                return
            }
            defer { av_frame_unref(frame) }
            if frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 || frame.pointee.decode_error_flags != 0 {
                decodeErrors += 1
            }
            var pts = frame.pointee.best_effort_timestamp
            if pts == kiln_av_nopts_value() { pts = frame.pointee.pts }
            if keyPacketTimestamps.contains(pts) { keyFrameIndices.append(timestamps.count) }
            timestamps.append(
                pts == kiln_av_nopts_value() ? .nan : Double(pts) * av_q2d(stream.pointee.time_base))
            if let onFrame { try onFrame(planar420(frame, index: timestamps.count - 1)) }
            if let onRGBA { onRGBA(try rgba(frame, index: timestamps.count - 1)) }
        }
    }

    /// Hands out the frame as 8-bit 4:2:0, converting other decoder outputs through swscale.
    private func planar420(_ frame: UnsafeMutablePointer<AVFrame>, index: Int) throws(MediaError)
        -> DecodedFrame
    {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        var source = frame
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        if format != AV_PIX_FMT_YUV420P && format != AV_PIX_FMT_YUVJ420P {
            source = try convertTo420(frame, format: format)
        }
        let yStride = Int(source.pointee.linesize.0), uvStride = Int(source.pointee.linesize.1)
        let chromaRows = (height + 1) / 2
        return DecodedFrame(
            index: index, width: width, height: height,
            y: UnsafeBufferPointer(start: source.pointee.data.0, count: yStride * height),
            u: UnsafeBufferPointer(start: source.pointee.data.1, count: uvStride * chromaRows),
            v: UnsafeBufferPointer(start: source.pointee.data.2, count: uvStride * chromaRows),
            yStride: yStride, uvStride: uvStride)
    }

    private func rgba(_ frame: UnsafeMutablePointer<AVFrame>, index: Int) throws(MediaError)
        -> DecodedRGBAFrame
    {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        if rgbaScaler == nil {
            rgbaScaler = try ScaleContext(
                width: width, height: height, from: format, to: AV_PIX_FMT_RGBA,
                flags: SWS_POINT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
            if !isRGB(format) {
                try rgbaScaler!.setColorspace(
                    SWS_CS_ITU709, sourceFullRange: frame.pointee.color_range == AVCOL_RANGE_JPEG,
                    destinationFullRange: true)
            }
        }
        return DecodedRGBAFrame.converting(frame, index: index, with: rgbaScaler!)
    }

    private func convertTo420(_ frame: UnsafeMutablePointer<AVFrame>, format: AVPixelFormat)
        throws(MediaError)
        -> UnsafeMutablePointer<AVFrame>
    {
        if converted == nil {
            converted = try require(av_frame_alloc(), "av_frame_alloc")
            converted!.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            converted!.pointee.width = frame.pointee.width
            converted!.pointee.height = frame.pointee.height
            try check(av_frame_get_buffer(converted, 0), "av_frame_get_buffer")
            scaler = try ScaleContext(
                width: Int(frame.pointee.width), height: Int(frame.pointee.height), from: format,
                to: AV_PIX_FMT_YUV420P, flags: SWS_BILINEAR | SWS_ACCURATE_RND)
        }
        let output = converted!
        scaler!.scale(
            frame: frame,
            destination: planes(output.pointee.data.0, output.pointee.data.1, output.pointee.data.2),
            destinationStrides: [
                output.pointee.linesize.0, output.pointee.linesize.1, output.pointee.linesize.2, 0,
            ])
        return output
    }

    private func info() -> VideoStreamInfo {
        let parameters = stream.pointee.codecpar.pointee
        var rate = stream.pointee.r_frame_rate
        if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.avg_frame_rate }
        func name(_ cString: UnsafePointer<CChar>?) -> String {
            cString.map { String(cString: $0) } ?? "unknown"
        }
        func seconds(_ value: Int64, _ base: AVRational) -> Double {
            value == kiln_av_nopts_value() ? 0 : Double(value) * av_q2d(base)
        }
        let streams = UnsafeBufferPointer(
            start: formatContext!.pointee.streams, count: Int(formatContext!.pointee.nb_streams))
        return VideoStreamInfo(
            codecName: name(avcodec_get_name(parameters.codec_id)),
            width: Int(parameters.width), height: Int(parameters.height),
            pixelFormat: name(av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format))),
            frameRateNumerator: Int(rate.num), frameRateDenominator: Int(rate.den),
            colorPrimaries: name(av_color_primaries_name(parameters.color_primaries)),
            colorTransfer: name(av_color_transfer_name(parameters.color_trc)),
            colorSpace: name(av_color_space_name(parameters.color_space)),
            colorRange: name(av_color_range_name(parameters.color_range)),
            decodedFrameCount: timestamps.count, decodeErrors: decodeErrors,
            containerDurationSeconds: seconds(
                formatContext!.pointee.duration, AVRational(num: 1, den: AV_TIME_BASE)),
            streamDurationSeconds: seconds(stream.pointee.duration, stream.pointee.time_base),
            presentationTimestamps: timestamps, keyFrameIndices: keyFrameIndices,
            hasAudio: streams.contains { $0?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO })
    }
}

/// Whether libav's `format` holds RGB(A) or palette indices rather than YUV.
func isRGB(_ format: AVPixelFormat) -> Bool {
    let name = String(cString: av_get_pix_fmt_name(format))
    return ["rgb", "bgr", "argb", "abgr", "gbr", "pal8"].contains { name.hasPrefix($0) }
}
