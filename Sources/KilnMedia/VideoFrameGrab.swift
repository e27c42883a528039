import CFFmpeg

/// Frames of a finished video as a viewer sees them, decoded in-process: the poster and contact
/// sheet of a video whose job is not known (`kiln review` of a file the queue has no record of).
public enum VideoFrameGrab {
    /// For each of `seconds`, the frame shown at that time: the last one starting at or before it
    /// (the first frame for a time before it), as straight RGBA converted with the stream's own matrix and range. Each time
    /// seeks to the keyframe before it, so a long video is not decoded from its start each time.
    public static func frames(path: String, atSeconds seconds: [Double]) throws(MediaError) -> [DecodedImage]
    {
        let reader = try GrabSession(path: path)
        var images: [DecodedImage] = []
        for time in seconds { images.append(try reader.frame(atSeconds: time)) }
        return images
    }
}

/// One opened file and its video decoder; closed on every path.
private final class GrabSession {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private let session: CodecSession

    init(path: String) throws(MediaError) {
        // The "file:" prefix and the protocol whitelist keep a name such as "concat:a|b" an
        // ordinary file name, as for still images.
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        try check(av_dict_set(&options, "protocol_whitelist", "file", 0), "av_dict_set")
        try check(avformat_open_input(&context, "file:" + path, nil, &options), "avformat_open_input")
        guard let context else { throw MediaError.failure("avformat_open_input", "\(path): returned NULL") }
        do throws(MediaError) {
            try check(avformat_find_stream_info(context, nil), "avformat_find_stream_info")
            let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
            guard index >= 0, let found = context.pointee.streams[Int(index)] else {
                throw MediaError.failure("VideoFrameGrab", "\(path): no video stream")
            }
            stream = found
            var copied: Int32 = 0
            session = try CodecSession(decoder: found.pointee.codecpar.pointee.codec_id) { codec in
                copied = avcodec_parameters_to_context(codec, found.pointee.codecpar)
                codec.pointee.pkt_timebase = found.pointee.time_base
            }
            try check(copied, "avcodec_parameters_to_context")
        } catch {
            avformat_close_input(&self.context)
            throw error
        }
    }

    deinit { avformat_close_input(&context) }

    func frame(atSeconds seconds: Double) throws(MediaError) -> DecodedImage {
        let base = stream.pointee.time_base
        let target = Int64((max(0, seconds) / av_q2d(base)).rounded(.down))
        try check(av_seek_frame(context, stream.pointee.index, target, AVSEEK_FLAG_BACKWARD), "av_seek_frame")
        avcodec_flush_buffers(session.context)
        // The latest frame starting at or before the target, referenced (not copied): the one shown
        // once the next frame starts after it. Only the frame returned is converted to RGBA.
        var held: UnsafeMutablePointer<AVFrame>?
        defer { av_frame_free(&held) }
        var draining = false
        while true {
            if !draining {
                let status = av_read_frame(context, session.packet)
                if status == kiln_averror_eof() {
                    draining = true
                    try check(avcodec_send_packet(session.context, nil), "avcodec_send_packet")
                } else {
                    try check(status, "av_read_frame")
                    defer { av_packet_unref(session.packet) }
                    guard session.packet.pointee.stream_index == stream.pointee.index else { continue }
                    try check(avcodec_send_packet(session.context, session.packet), "avcodec_send_packet")
                }
            }
            while true {
                let status = avcodec_receive_frame(session.context, session.frame)
                if status == kiln_averror_eof() {
                    guard let held else { throw MediaError.failure("VideoFrameGrab", "no frame decoded") }
                    return try Self.image(held)
                }
                if status == kiln_averror_eagain() { break }
                try check(status, "avcodec_receive_frame")
                defer { av_frame_unref(session.frame) }
                var pts = session.frame.pointee.best_effort_timestamp
                if pts == kiln_av_nopts_value() { pts = session.frame.pointee.pts }
                if pts != kiln_av_nopts_value() && pts > target {
                    return try Self.image(held ?? session.frame)
                }
                av_frame_free(&held)
                held = av_frame_clone(session.frame)
            }
        }
    }

    private static func image(_ frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> DecodedImage {
        DecodedImage(
            width: Int(frame.pointee.width), height: Int(frame.pointee.height),
            rgba: try straightRGBA(from: frame))
    }
}
