import CFFmpeg

/// An opened single-image codec with one frame and one packet, all freed together.
final class CodecSession {
    let context: UnsafeMutablePointer<AVCodecContext>
    let frame: UnsafeMutablePointer<AVFrame>
    let packet: UnsafeMutablePointer<AVPacket>

    convenience init(encoder id: AVCodecID, width: Int, height: Int) throws(MediaError) {
        let codec = try require(avcodec_find_encoder(id), "avcodec_find_encoder")
        try self.init(codec: codec) { context in
            context.pointee.width = Int32(width)
            context.pointee.height = Int32(height)
            context.pointee.pix_fmt = AV_PIX_FMT_RGBA
            // Encoders refuse to open without a time base, even for a single image.
            context.pointee.time_base = AVRational(num: 1, den: 1)
        }
    }

    /// `configure` runs before avcodec_open2 (e.g. to set max_pixels).
    convenience init(
        decoder id: AVCodecID, configure: (UnsafeMutablePointer<AVCodecContext>) -> Void = { _ in }
    ) throws(MediaError) {
        let codec = try require(avcodec_find_decoder(id), "avcodec_find_decoder")
        try self.init(codec: codec, configure: configure)
    }

    private init(codec: UnsafePointer<AVCodec>, configure: (UnsafeMutablePointer<AVCodecContext>) -> Void)
        throws(MediaError)
    {
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
        configure(openedContext)
        // On failure deinit runs (self is fully initialised) and frees everything.
        try check(avcodec_open2(openedContext, codec, nil), "avcodec_open2")
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
