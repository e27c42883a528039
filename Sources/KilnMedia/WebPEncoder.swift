import CFFmpeg

/// RGBA8 → a lossless WebP with libavcodec's wrapper of libwebp, found by name because FFmpeg
/// has no WebP encoder of its own. Lossless, so a WebP preview holds exactly the PNG's pixels.
enum WebPEncoder {
    static let encoderName = "libwebp"

    /// False when this FFmpeg was built without libwebp.
    static var isAvailable: Bool { avcodec_find_encoder_by_name(encoderName) != nil }

    static func encode(rgba: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) throws(MediaError)
        -> [UInt8]
    {
        let codec = try require(
            avcodec_find_encoder_by_name(encoderName), "avcodec_find_encoder_by_name",
            "this FFmpeg has no \(encoderName) encoder")
        // The wrapper takes BGRA (libwebp's ARGB words in little-endian memory), not RGBA.
        let session = try CodecSession(
            encoder: codec, width: width, height: height, pixelFormat: AV_PIX_FMT_BGRA
        ) { context throws(MediaError) in
            try check(av_opt_set_int(context.pointee.priv_data, "lossless", 1, 0), "av_opt_set_int(lossless)")
        }
        let frame = session.frame
        try session.allocateEncoderFrame()
        let destination = frame.pointee.data.0!
        let destinationStride = Int(frame.pointee.linesize.0)
        for y in 0..<height {
            let from = rgba + y * stride, to = destination + y * destinationStride
            for x in 0..<width {
                to[x * 4] = from[x * 4 + 2]
                to[x * 4 + 1] = from[x * 4 + 1]
                to[x * 4 + 2] = from[x * 4]
                to[x * 4 + 3] = from[x * 4 + 3]
            }
        }
        return try session.encodeOnlyFrame()
    }
}
