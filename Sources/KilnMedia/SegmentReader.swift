import CFFmpeg

/// One segment's video packets in decode order, with presentation timestamps turned into frame
/// numbers from the first packet's, checked on the way: one packet per frame, every frame once.
final class SegmentReader {
    struct Frame {
        /// Presentation frame number within the segment.
        let presentation: Int64
    }

    let path: String
    let stream: UnsafeMutablePointer<AVStream>
    let frameRate: AVRational
    let hasAudio: Bool
    private(set) var packetsRead = 0
    private(set) var startsWithKeyframe = false
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private let frameTimeBase: AVRational
    private var startPts: Int64 = 0
    private var lastDts: Int64 = 0
    private var presented = Set<Int64>()
    private var lastPresentation: Int64 = -1

    init(path: String) throws(MediaError) {
        self.path = path
        // No avformat_find_stream_info: the MP4 header already has what a stream copy needs, and
        // it would decode frames to fill in fields nobody here reads.
        do throws(MediaError) {
            try check(avformat_open_input(&formatContext, path, nil, nil), "avformat_open_input")
        } catch {
            throw Self.named(error, path)
        }
        guard let formatContext else {
            throw MediaError.failure("avformat_open_input", "\(path): returned NULL")
        }
        let streams = UnsafeBufferPointer(
            start: formatContext.pointee.streams, count: Int(formatContext.pointee.nb_streams))
        hasAudio = streams.contains { $0?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
        let index = av_find_best_stream(formatContext, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, let stream = streams[Int(index)] else {
            avformat_close_input(&self.formatContext)
            throw MediaError.failure("SegmentReader", "\(path): no video stream")
        }
        self.stream = stream
        var rate = stream.pointee.r_frame_rate
        if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.avg_frame_rate }
        guard rate.num > 0, rate.den > 0 else {
            avformat_close_input(&self.formatContext)
            throw MediaError.failure("SegmentReader", "\(path): the video stream has no frame rate")
        }
        frameRate = rate
        frameTimeBase = av_inv_q(rate)
    }

    deinit { avformat_close_input(&formatContext) }

    /// A refusal naming this segment.
    func refusal(_ message: String) -> MediaError {
        MediaError.failure("SegmentAssembler", "\(path): \(message)")
    }

    /// Frames by which the first packet's decode timestamp precedes its presentation timestamp
    /// (x264's B-frame delay). Reads that packet: copying needs a fresh reader.
    func firstPacketDelay() throws(MediaError) -> Int64 {
        let packet = try require(av_packet_alloc(), "av_packet_alloc")
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }
        guard try next(packet) != nil else { throw refusal("no video packets") }
        defer { av_packet_unref(packet) }
        return av_rescale_q(packet.pointee.pts - packet.pointee.dts, stream.pointee.time_base, frameTimeBase)
    }

    /// Reads the next video packet into `packet` (the caller unrefs it); nil at the end.
    func next(_ packet: UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Frame? {
        guard let formatContext else { throw refusal("closed") }
        while true {
            let status = av_read_frame(formatContext, packet)
            if status == kiln_averror_eof() { return nil }
            do throws(MediaError) { try check(status, "av_read_frame") } catch {
                throw Self.named(error, path)
            }
            guard packet.pointee.stream_index == stream.pointee.index else {
                av_packet_unref(packet)
                continue
            }
            do throws(MediaError) {
                return try accept(packet)
            } catch {
                av_packet_unref(packet)
                throw error
            }
        }
    }

    private func accept(_ packet: UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Frame {
        let pts = packet.pointee.pts, dts = packet.pointee.dts
        guard pts != kiln_av_nopts_value(), dts != kiln_av_nopts_value() else {
            throw refusal("packet \(packetsRead) has no timestamp")
        }
        guard packet.pointee.flags & AV_PKT_FLAG_DISCARD == 0 else {
            throw refusal("its edit list drops frames")
        }
        if packetsRead == 0 {
            startsWithKeyframe = packet.pointee.flags & AV_PKT_FLAG_KEY != 0
            startPts = pts
        } else if dts <= lastDts {
            throw refusal("decode timestamps do not increase at packet \(packetsRead)")
        }
        lastDts = dts
        // Rounded to the nearest frame: a coarse container time scale may not hold 1/fps exactly,
        // and the duplicate and gap checks below catch anything that is not one frame per packet.
        let frame = av_rescale_q(pts - startPts, stream.pointee.time_base, frameTimeBase)
        guard frame >= 0 else {
            throw refusal("packet \(packetsRead) is shown before the segment's first frame (open GOP)")
        }
        guard presented.insert(frame).inserted else {
            throw refusal("two packets present frame \(frame)")
        }
        lastPresentation = max(lastPresentation, frame)
        packetsRead += 1
        return Frame(presentation: frame)
    }

    /// After the last packet: the presented frames are exactly 0…n−1 (distinct, non-negative and
    /// the largest is n−1), and there was at least one.
    func checkComplete() throws(MediaError) {
        guard packetsRead > 0 else { throw refusal("no video packets") }
        guard lastPresentation == Int64(packetsRead - 1) else {
            throw refusal("\(packetsRead) packets but frames up to \(lastPresentation): timestamps have gaps")
        }
    }

    /// Refuses a segment that cannot be joined to `reference` by stream copy.
    func checkMatches(_ reference: SegmentReader, index: Int) throws(MediaError) {
        // An audio track per segment would restart at every join; the assembler adds one track.
        if hasAudio { throw refusal("segment \(index) has an audio stream (segments are video only)") }
        let mine = stream.pointee.codecpar.pointee, theirs = reference.stream.pointee.codecpar.pointee
        func differs(_ what: String) -> MediaError {
            refusal("segment \(index) differs from the first (\(reference.path)) in \(what)")
        }
        if mine.codec_id != theirs.codec_id { throw differs("codec") }
        if mine.width != theirs.width || mine.height != theirs.height {
            throw differs("size: \(mine.width)×\(mine.height), not \(theirs.width)×\(theirs.height)")
        }
        if av_cmp_q(frameRate, reference.frameRate) != 0 {
            throw differs(
                "frame rate: \(frameRate.num)/\(frameRate.den), not \(reference.frameRate.num)/\(reference.frameRate.den)"
            )
        }
        if mine.format != theirs.format || mine.profile != theirs.profile || mine.level != theirs.level {
            throw differs("pixel format, profile or level")
        }
        if mine.color_primaries != theirs.color_primaries || mine.color_trc != theirs.color_trc
            || mine.color_space != theirs.color_space || mine.color_range != theirs.color_range
        {
            throw differs("colour tags")
        }
        // The joined file has one sample description: the first segment's SPS/PPS must decode all.
        let extradata = { (p: AVCodecParameters) in
            p.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(p.extradata_size))) } ?? []
        }
        if extradata(mine) != extradata(theirs) { throw differs("codec parameters (SPS/PPS)") }
    }

    private static func named(_ error: MediaError, _ path: String) -> MediaError {
        MediaError(function: error.function, code: error.code, message: "\(path): \(error.message)")
    }
}
