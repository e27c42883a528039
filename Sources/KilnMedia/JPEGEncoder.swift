import CFFmpeg

/// RGBA8 → a baseline JFIF JPEG with libavcodec's MJPEG encoder.
///
/// JFIF stores full-range YCbCr with BT.601 coefficients, and that is what every JPEG decoder
/// converts back with, so swscale converts with exactly those. Chroma is kept at full resolution
/// (4:4:4): a preview is looked at closely, and subsampled chroma smears coloured edges. Alpha is
/// dropped; preview frames are opaque.
enum JPEGEncoder {
    /// MJPEG quantiser scale 2, the finest the encoder's default qmin allows: artefacts are hard
    /// to see, a flat colour decodes back within a code value or two.
    static let quantiserScale: Int32 = 2

    static func encode(rgba: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) throws(MediaError)
        -> [UInt8]
    {
        let codec = try require(
            avcodec_find_encoder(AV_CODEC_ID_MJPEG), "avcodec_find_encoder", "no MJPEG encoder")
        // Plain yuv444p tagged full range rather than the deprecated yuvj444p, which swscale warns
        // about; the MJPEG encoder accepts either once the range says JPEG.
        let session = try CodecSession(
            encoder: codec, width: width, height: height, pixelFormat: AV_PIX_FMT_YUV444P
        ) { context in
            context.pointee.color_range = AVCOL_RANGE_JPEG
            context.pointee.colorspace = AVCOL_SPC_BT470BG
            // The encoder writes the JFIF APP0 segment only when a sample aspect ratio is set.
            context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
            // A fixed quantiser instead of rate control: the quality is the same for any picture.
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointee.global_quality = FF_QP2LAMBDA * quantiserScale
        }
        let frame = session.frame
        try session.allocateEncoderFrame()
        // With a fixed quantiser the encoder takes each picture's quality from the frame.
        frame.pointee.quality = FF_QP2LAMBDA * quantiserScale
        frame.pointee.color_range = AVCOL_RANGE_JPEG
        frame.pointee.colorspace = AVCOL_SPC_BT470BG

        let scaler = try ScaleContext(
            width: width, height: height, from: AV_PIX_FMT_RGBA, to: AV_PIX_FMT_YUV444P,
            flags: SWS_BILINEAR | SWS_ACCURATE_RND | SWS_BITEXACT)
        try scaler.setColorspace(SWS_CS_ITU601, sourceFullRange: true, destinationFullRange: true)
        // swscale's vector loops may read past the last pixel, so the picture is copied into a
        // buffer with slack after it rather than read where the caller keeps it.
        var source = [UInt8](repeating: 0, count: width * height * 4 + scalePadding)
        source.withUnsafeMutableBufferPointer {
            av_image_copy_plane(
                $0.baseAddress, Int32(width * 4), rgba, Int32(stride), Int32(width * 4), Int32(height))
        }
        source.withUnsafeBufferPointer {
            scaler.scale(
                source: planes($0.baseAddress), sourceStrides: strides(width * 4),
                destination: planes(frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2),
                destinationStrides: strides(
                    Int(frame.pointee.linesize.0), Int(frame.pointee.linesize.1),
                    Int(frame.pointee.linesize.2)))
        }
        return try session.encodeOnlyFrame()
    }
}
