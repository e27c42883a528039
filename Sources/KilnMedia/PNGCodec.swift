import CFFmpeg

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
        // FFmpeg 5.1's PNG encoder writes sRGB only for exactly this primaries/transfer pair.
        frame.pointee.color_primaries = AVCOL_PRI_BT709
        frame.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
        try session.allocateEncoderFrame()
        av_image_copy_plane(
            frame.pointee.data.0, frame.pointee.linesize.0, rgba, Int32(stride), Int32(width * 4),
            Int32(height))
        return try session.encodeOnlyFrame()
    }

    /// Any PNG (palette, grey, 16-bit …) → RGBA8.
    public static func decode(_ bytes: [UInt8]) throws(MediaError) -> DecodedImage {
        try decodeStill(bytes, codec: AV_CODEC_ID_PNG)
    }

    /// One picture of any still-image codec libavcodec decodes (PNG, WebP …) → straight RGBA8.
    package static func decodeStill(_ bytes: [UInt8], codec: AVCodecID) throws(MediaError) -> DecodedImage {
        guard !bytes.isEmpty else { throw MediaError.failure("PNGCodec.decode", "empty input") }
        let session = try CodecSession(decoder: codec)
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
