import CFFmpeg

/// What both MP4 writers (`VideoFileWriter`, `SegmentAssembler`) do with their output context.
enum Muxer {
    /// Hands a packet to the muxer, which orders the tracks by time (it takes the packet's data).
    static func writeInterleaved(
        _ packet: UnsafeMutablePointer<AVPacket>, to formatContext: UnsafeMutablePointer<AVFormatContext>?
    ) throws(MediaError) {
        guard let formatContext else { return }
        let written = av_interleaved_write_frame(formatContext, packet)
        av_packet_unref(packet)
        try check(written, "av_interleaved_write_frame")
    }

    /// Closes the file (if the format has one) and frees the context; safe on nil.
    static func close(_ formatContext: inout UnsafeMutablePointer<AVFormatContext>?) {
        guard let context = formatContext else { return }
        if context.pointee.oformat.pointee.flags & kiln_avfmt_flag_nofile() == 0 {
            avio_closep(&context.pointee.pb)
        }
        avformat_free_context(context)
        formatContext = nil
    }
}
