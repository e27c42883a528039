import CFFmpeg
import Foundation

/// Still images (PNG, JPEG, WebP) from files, decoded with libavformat + libavcodec and converted
/// with libswscale. EXIF orientation is ignored: pixels come out in stored order.
public enum ImageFile {
    /// Largest width or height accepted: 16384 pixels, checked from the header before any decoder
    /// exists. A 16384x16384 RGBA8 image is 1 GiB. FFmpeg's own frame bound is a little tighter in
    /// area (the largest square it decodes is 16255x16255); `probe` applies that too, so both
    /// limits surface as `ImageFileError.tooLarge`.
    public static let maxDimension = 16_384

    /// Reads only the header bytes (PNG IHDR, JPEG marker segments up to the first SOFn, WebP
    /// VP8/VP8L/VP8X chunk) and returns the size. Pure Swift, no FFmpeg: this is what refuses a huge
    /// image before any decoder allocates pixels. The format is sniffed from the content; the file
    /// name's extension plays no part.
    public static func probe(_ url: URL) throws(ImageFileError) -> (
        format: ImageFormat, width: Int, height: Int
    ) {
        try ImageHeader.read(url)
    }

    /// Decodes the first frame.
    ///
    /// Without `size` the result is the image at its own size in straight (non-premultiplied)
    /// alpha, `premultiplied == false`.
    ///
    /// With `size` (each side 1...`maxDimension`; anything else is a programming error) the image is
    /// premultiplied, resampled to exactly that size with swscale's bicubic (prefiltered when
    /// shrinking, so fine detail averages instead of aliasing), and returned premultiplied,
    /// `premultiplied == true`, even when `size` equals the image's own size. Resampling
    /// premultiplied colour keeps the colour of fully transparent pixels from bleeding into their
    /// neighbours. Pixel format conversion and resampling run swscale bit-exact with accurate
    /// rounding, so they give the same bytes on every CPU.
    ///
    /// The header is probed and the size limit checked first; the decoder's `max_pixels` is then set
    /// from the probed size as a second guard, and a decoded frame whose size differs from the
    /// header is refused as corrupt.
    public static func decode(_ url: URL, resizedTo size: (width: Int, height: Int)? = nil)
        throws(ImageFileError) -> DecodedImage
    {
        if let size {
            precondition(
                (1...maxDimension).contains(size.width) && (1...maxDimension).contains(size.height),
                "resize target \(size.width)x\(size.height) is outside 1...\(maxDimension) on a side")
        }
        let header = try probe(url)
        let path = url.path
        let session: CodecSession
        do throws(MediaError) {
            let demuxer = try ImageDemuxer(path: path, format: header.format)
            session = try CodecSession(decoder: header.format.codec) { context in
                // ff_get_buffer checks the width rounded up to STRIDE_ALIGN (at most 64) against
                // max_pixels, so that much slack is allowed.
                context.pointee.max_pixels = Int64((header.width + 63) & ~63) * Int64(header.height)
                // The MJPEG decoder otherwise skips over damaged scan data (a file cut short comes
                // out grey at the bottom) without flagging the frame; EXPLODE turns exactly those
                // scan errors into failures. A missing EOI alone is still accepted.
                if header.format == .jpeg { context.pointee.err_recognition |= AV_EF_EXPLODE }
            }
            try demuxer.decodeFirstFrame(into: session)
        } catch {
            throw ImageFileError(error, path: path)
        }
        let frame = session.frame
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        guard width == header.width, height == header.height else {
            throw .corrupt(
                path: path,
                reason:
                    "the header says \(header.width)x\(header.height) but the image data is \(width)x\(height)"
            )
        }
        // A decoder that conceals damage instead of failing marks the frame; what it returns is then
        // not the picture the file holds.
        guard frame.pointee.flags & AV_FRAME_FLAG_CORRUPT == 0, frame.pointee.decode_error_flags == 0 else {
            throw .corrupt(path: path, reason: "the decoder reported damaged image data")
        }
        do throws(MediaError) {
            var rgba = try straightRGBA(from: frame)
            // The decoded frame is no longer needed; release it before resampling allocates more.
            av_frame_unref(frame)
            guard let size else { return DecodedImage(width: width, height: height, rgba: rgba) }
            premultiply(&rgba)
            return DecodedImage(
                width: size.width, height: size.height,
                rgba: try resizePremultiplied(rgba, width: width, height: height, to: size),
                premultiplied: true)
        } catch {
            throw ImageFileError(error, path: path)
        }
    }
}

/// One image file opened with its format's pipe demuxer; closed on every path.
private final class ImageDemuxer {
    private var context: UnsafeMutablePointer<AVFormatContext>?

    init(path: String, format: ImageFormat) throws(MediaError) {
        // The demuxer is forced to the sniffed format instead of letting libavformat probe for one.
        // The "file:" prefix and the protocol whitelist keep a name such as "concat:a|b" or
        // "http://…" an ordinary file name.
        let input = try require(
            av_find_input_format(format.demuxer), "av_find_input_format", "no \(format.demuxer) demuxer")
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        try check(av_dict_set(&options, "protocol_whitelist", "file", 0), "av_dict_set")
        // avformat_open_input frees the context itself on failure.
        try check(avformat_open_input(&context, "file:" + path, input, &options), "avformat_open_input")
    }

    deinit { avformat_close_input(&context) }

    /// Feeds packets to the decoder until it returns its first frame in `session.frame`. The size
    /// comes from that frame: avformat_find_stream_info would decode a frame just to learn it.
    func decodeFirstFrame(into session: CodecSession) throws(MediaError) {
        while true {
            let status = av_read_frame(context, session.packet)
            if status == kiln_averror_eof() { break }
            try check(status, "av_read_frame")
            let sent = avcodec_send_packet(session.context, session.packet)
            av_packet_unref(session.packet)
            try check(sent, "avcodec_send_packet")
            if try receiveFrame(session) { return }
        }
        try check(avcodec_send_packet(session.context, nil), "avcodec_send_packet")
        if try receiveFrame(session) { return }
        throw MediaError.failure("avcodec_receive_frame", "the file holds no image data")
    }

    private func receiveFrame(_ session: CodecSession) throws(MediaError) -> Bool {
        let status = avcodec_receive_frame(session.context, session.frame)
        if status == kiln_averror_eagain() || status == kiln_averror_eof() { return false }
        try check(status, "avcodec_receive_frame")
        return true
    }
}
