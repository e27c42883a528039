import CFFmpeg

/// An opened single-image codec with one frame and one packet, all freed together.
final class CodecSession {
    let context: UnsafeMutablePointer<AVCodecContext>
    let frame: UnsafeMutablePointer<AVFrame>
    let packet: UnsafeMutablePointer<AVPacket>

    convenience init(encoder id: AVCodecID, width: Int, height: Int) throws(MediaError) {
        let codec = try require(avcodec_find_encoder(id), "avcodec_find_encoder")
        try self.init(encoder: codec, width: width, height: height, pixelFormat: AV_PIX_FMT_RGBA)
    }

    /// An encoder for one `pixelFormat` picture; `configure` runs before avcodec_open2 (quality,
    /// colour tags, private options).
    convenience init(
        encoder codec: UnsafePointer<AVCodec>, width: Int, height: Int, pixelFormat: AVPixelFormat,
        configure: (UnsafeMutablePointer<AVCodecContext>) throws(MediaError) -> Void = { _ in }
    ) throws(MediaError) {
        try self.init(codec: codec) { context throws(MediaError) in
            context.pointee.width = Int32(width)
            context.pointee.height = Int32(height)
            context.pointee.pix_fmt = pixelFormat
            // Encoders refuse to open without a time base, even for a single image.
            context.pointee.time_base = AVRational(num: 1, den: 1)
            try configure(context)
        }
    }

    /// `configure` runs before avcodec_open2 (e.g. to set max_pixels).
    convenience init(
        decoder id: AVCodecID, configure: (UnsafeMutablePointer<AVCodecContext>) -> Void = { _ in }
    ) throws(MediaError) {
        let codec = try require(avcodec_find_decoder(id), "avcodec_find_decoder")
        try self.init(codec: codec, configure: configure)
    }

    private init(
        codec: UnsafePointer<AVCodec>,
        configure: (UnsafeMutablePointer<AVCodecContext>) throws(MediaError) -> Void
    ) throws(MediaError) {
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        guard let openedContext = context, let frame, let packet else {
            avcodec_free_context(&context)
            av_frame_free(&frame)
            av_packet_free(&packet)
            throw MediaError.failure("avcodec_alloc_context3/av_frame_alloc/av_packet_alloc", "out of memory")
        }
        self.context = openedContext
        self.frame = frame
        self.packet = packet
        // On failure deinit runs (self is fully initialised) and frees everything.
        try configure(openedContext)
        try check(avcodec_open2(openedContext, codec, nil), "avcodec_open2")
    }

    /// Gives `frame` a buffer in the encoder's pixel format and size, for the caller to fill.
    /// FFmpeg pads its rows and planes, so swscale may write whole vectors into it.
    func allocateEncoderFrame() throws(MediaError) {
        frame.pointee.format = context.pointee.pix_fmt.rawValue
        frame.pointee.width = context.pointee.width
        frame.pointee.height = context.pointee.height
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
    }

    /// Encodes `frame` as the only picture and returns the one packet that comes out: the whole
    /// image file for a still-image encoder.
    func encodeOnlyFrame() throws(MediaError) -> [UInt8] {
        try check(avcodec_send_frame(context, frame), "avcodec_send_frame")
        try check(avcodec_send_frame(context, nil), "avcodec_send_frame")
        try check(avcodec_receive_packet(context, packet), "avcodec_receive_packet")
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }
}
