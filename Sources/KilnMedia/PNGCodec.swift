import CFFmpeg

public struct DecodedImage: Sendable {
    public let width: Int
    public let height: Int
    /// Tightly packed (stride = width * 4) RGBA8; straight alpha unless `premultiplied`.
    public let rgba: [UInt8]
    /// True when each colour byte is already multiplied by alpha (every colour <= its alpha), as
    /// `ImageFile.decode` returns resized images. `PNGCodec.decode` never premultiplies.
    public let premultiplied: Bool

    public init(width: Int, height: Int, rgba: [UInt8], premultiplied: Bool = false) {
        self.width = width
        self.height = height
        self.rgba = rgba
        self.premultiplied = premultiplied
    }
}

/// PNG through libavcodec's PNG encoder/decoder. Encoded images carry an sRGB chunk (plus cHRM/gAMA).
public enum PNGCodec {
    public static func encode(rgba: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int)
        throws(MediaError)
        -> [UInt8]
    {
        guard width > 0, height > 0, stride >= width * 4 else {
            throw MediaError.failure("PNGCodec.encode", "invalid size \(width)x\(height) stride \(stride)")
        }
        let session = try CodecSession(encoder: AV_CODEC_ID_PNG, width: width, height: height)
        let frame = session.frame
        frame.pointee.format = AV_PIX_FMT_RGBA.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        // FFmpeg 5.1's PNG encoder writes sRGB only for exactly this primaries/transfer pair.
        frame.pointee.color_primaries = AVCOL_PRI_BT709
        frame.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
        av_image_copy_plane(
            frame.pointee.data.0, frame.pointee.linesize.0, rgba, Int32(stride), Int32(width * 4),
            Int32(height))

        try check(avcodec_send_frame(session.context, frame), "avcodec_send_frame")
        try check(avcodec_send_frame(session.context, nil), "avcodec_send_frame")
        try check(avcodec_receive_packet(session.context, session.packet), "avcodec_receive_packet")
        return Array(
            UnsafeBufferPointer(start: session.packet.pointee.data, count: Int(session.packet.pointee.size)))
    }

    /// Any PNG (palette, grey, 16-bit …) → RGBA8.
    public static func decode(_ bytes: [UInt8]) throws(MediaError) -> DecodedImage {
        guard !bytes.isEmpty else { throw MediaError.failure("PNGCodec.decode", "empty input") }
        let session = try CodecSession(decoder: AV_CODEC_ID_PNG)
        let packet = session.packet
        try check(av_new_packet(packet, Int32(bytes.count)), "av_new_packet")
        bytes.withUnsafeBufferPointer { packet.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
        try check(avcodec_send_packet(session.context, packet), "avcodec_send_packet")
        try check(avcodec_send_packet(session.context, nil), "avcodec_send_packet")
        try check(avcodec_receive_frame(session.context, session.frame), "avcodec_receive_frame")
        return DecodedImage(
            width: Int(session.frame.pointee.width), height: Int(session.frame.pointee.height),
            rgba: try straightRGBA(from: session.frame))
    }
}

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
