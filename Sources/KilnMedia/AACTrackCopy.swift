import CFFmpeg

/// An encoded soundtrack (`AACTrackFile`) copied into an assembly's output, packet by packet, in
/// step with the video so the muxer interleaves the two closely.
final class AACTrackCopy {
    private var input: UnsafeMutablePointer<AVFormatContext>?
    private let inputStream: UnsafeMutablePointer<AVStream>
    let stream: UnsafeMutablePointer<AVStream>
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// A packet read but not yet due.
    private var pending = false
    private var finished = false
    private let frameTimeBase: AVRational
    let path: String

    init(path: String, output: UnsafeMutablePointer<AVFormatContext>, frameTimeBase: AVRational)
        throws(MediaError)
    {
        self.path = path
        self.frameTimeBase = frameTimeBase
        var opened = try Self.open(path)
        guard let found = opened.flatMap({ $0.pointee.streams[0] }),
            let created = avformat_new_stream(output, nil), let packet = av_packet_alloc()
        else {
            avformat_close_input(&opened)
            throw MediaError.failure("SegmentAssembler", "\(path): cannot set up the soundtrack's copy")
        }
        input = opened
        inputStream = found
        stream = created
        self.packet = packet
        do throws(MediaError) {
            try check(
                avcodec_parameters_copy(stream.pointee.codecpar, found.pointee.codecpar),
                "avcodec_parameters_copy")
        } catch {
            release()
            throw error
        }
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = found.pointee.time_base
    }

    /// Opens the soundtrack, refusing anything but one AAC stream.
    private static func open(_ path: String) throws(MediaError) -> UnsafeMutablePointer<AVFormatContext>? {
        func refuse(_ why: String) -> MediaError { .failure("SegmentAssembler", "\(path): \(why)") }
        var opened: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_open_input(&opened, path, nil, nil) >= 0, let context = opened else {
            throw refuse("cannot open the soundtrack")
        }
        guard avformat_find_stream_info(context, nil) >= 0, context.pointee.nb_streams == 1,
            let only = context.pointee.streams[0], only.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_AAC
        else {
            avformat_close_input(&opened)
            throw refuse("is not a soundtrack of one AAC stream")
        }
        return opened
    }

    deinit { release() }

    /// Copies the packets that start before video frame `frame` does.
    func copy(
        throughVideoFrame frame: Int, write: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void
    )
        throws(MediaError)
    {
        try copy(
            until: av_rescale_q(Int64(frame), frameTimeBase, inputStream.pointee.time_base), write: write)
    }

    /// Copies the rest of the track.
    func finish(write: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void) throws(MediaError) {
        try copy(until: Int64.max, write: write)
    }

    private func copy(until limit: Int64, write: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void)
        throws(MediaError)
    {
        guard let input, let packet else { return }
        while !finished {
            if !pending {
                let status = av_read_frame(input, packet)
                if status == kiln_averror_eof() {
                    finished = true
                    return
                }
                try check(status, "av_read_frame(\(path))")
                pending = true
            }
            guard packet.pointee.dts == kiln_av_nopts_value() || packet.pointee.dts < limit else { return }
            pending = false
            av_packet_rescale_ts(packet, inputStream.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            packet.pointee.pos = -1
            try write(packet)
        }
    }

    func release() {
        av_packet_free(&packet)
        avformat_close_input(&input)
    }
}
