import CFFmpeg

/// What `SegmentFile.probe` found in a segment: enough to decide whether a finished segment can be
/// reused on resume.
public struct SegmentInfo: Sendable, Equatable {
    /// Video packets, each one frame; their timestamps are checked to be frames 0…n−1 exactly once.
    public var frameCount: Int
    public var width: Int
    public var height: Int
    public var frameRateNumerator: Int
    public var frameRateDenominator: Int
    /// Whether the first packet in decode order is a keyframe (so the segment decodes on its own).
    public var startsWithKeyframe: Bool
    public var hasAudio: Bool

    public init(
        frameCount: Int, width: Int, height: Int, frameRateNumerator: Int, frameRateDenominator: Int,
        startsWithKeyframe: Bool, hasAudio: Bool
    ) {
        self.frameCount = frameCount
        self.width = width
        self.height = height
        self.frameRateNumerator = frameRateNumerator
        self.frameRateDenominator = frameRateDenominator
        self.startsWithKeyframe = startsWithKeyframe
        self.hasAudio = hasAudio
    }
}

/// What `SegmentAssembler.assemble` wrote.
public struct AssemblySummary: Sendable, Equatable {
    public var frameCount: Int
    /// Frames taken from each segment, in order.
    public var segmentFrameCounts: [Int]
    public var frameRateNumerator: Int
    public var frameRateDenominator: Int
    /// frames · den / num.
    public var durationSeconds: Double
    /// Samples per channel at `AudioFormat.sampleRate` encoded here; nil without audio or when an
    /// encoded track was copied.
    public var audioSamples: Int?

    public init(
        frameCount: Int, segmentFrameCounts: [Int], frameRateNumerator: Int, frameRateDenominator: Int,
        durationSeconds: Double, audioSamples: Int?
    ) {
        self.frameCount = frameCount
        self.segmentFrameCounts = segmentFrameCounts
        self.frameRateNumerator = frameRateNumerator
        self.frameRateDenominator = frameRateDenominator
        self.durationSeconds = durationSeconds
        self.audioSamples = audioSamples
    }
}

public enum SegmentFile {
    /// Opens a segment and reads its video packets without decoding them. Throws for a file that
    /// cannot be read, has no video stream, or whose timestamps are not one packet per frame.
    public static func probe(path: String) throws(MediaError) -> SegmentInfo {
        let reader = try SegmentReader(path: path)
        let packet = try require(av_packet_alloc(), "av_packet_alloc")
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }
        while try reader.next(packet) != nil { av_packet_unref(packet) }
        try reader.checkComplete()
        let parameters = reader.stream.pointee.codecpar.pointee
        return SegmentInfo(
            frameCount: reader.packetsRead, width: Int(parameters.width), height: Int(parameters.height),
            frameRateNumerator: Int(reader.frameRate.num), frameRateDenominator: Int(reader.frameRate.den),
            startsWithKeyframe: reader.startsWithKeyframe, hasAudio: reader.hasAudio)
    }
}

/// Joins video-only MP4 segments (as `MP4VideoWriter` writes them: same settings, each starting
/// with an IDR frame, closed GOPs) into one MP4 by stream copy through libavformat: no decode,
/// no re-encode. Optionally adds one AAC track for the whole timeline, encoded here once so it has
/// no seams at the joins.
public enum SegmentAssembler {
    /// Writes the joined file to `path` (the caller's temporary name). On failure everything is
    /// closed and the partial file is left for the caller to delete.
    @discardableResult
    ///
    /// The soundtrack is either encoded here from `audio`, or copied from `audioTrack`, an
    /// `AACTrackFile` encoded earlier (while the segments rendered); not both.
    public static func assemble(
        segments: [String], to path: String, audio: (any AudioSampleSource)? = nil, audioTrack: String? = nil,
        faststart: Bool = true
    ) throws(MediaError) -> AssemblySummary {
        guard audio == nil || audioTrack == nil else {
            throw MediaError.failure(
                "SegmentAssembler", "give a soundtrack to encode or one to copy, not both")
        }
        guard let firstPath = segments.first else {
            throw MediaError.failure("SegmentAssembler", "no segments to assemble")
        }
        // A first pass over the headers (and each first packet) refuses mismatched segments before
        // anything is written, and finds the decoder delay the joined stream needs.
        let reference = try SegmentReader(path: firstPath)
        var delay: Int64 = 0
        for (index, segment) in segments.enumerated() {
            let reader = index == 0 ? reference : try SegmentReader(path: segment)
            try reader.checkMatches(reference, index: index)
            delay = max(delay, try reader.firstPacketDelay())
            guard reader.startsWithKeyframe else { throw reader.refusal("does not start with a keyframe") }
        }
        let output = try AssemblyOutput(
            path: path, reference: reference, audio: audio, audioTrack: audioTrack, faststart: faststart,
            delay: delay)
        return try output.write(segments)
    }
}

/// The output file of one assembly. Frame units throughout (1/fps), rescaled to the stream's time
/// base only when a packet is handed to the muxer.
private final class AssemblyOutput {
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var audio: AACTrackEncoder?
    private var audioCopy: AACTrackCopy?
    private let stream: UnsafeMutablePointer<AVStream>
    private let reference: SegmentReader
    private let frameRate: AVRational
    private let frameTimeBase: AVRational
    /// Frames by which every decode timestamp precedes its decode index (the largest segment's).
    private let delay: Int64

    init(
        path: String, reference: SegmentReader, audio audioSource: (any AudioSampleSource)?,
        audioTrack: String?,
        faststart: Bool, delay: Int64
    ) throws(MediaError) {
        self.reference = reference
        self.delay = delay
        frameRate = reference.frameRate
        frameTimeBase = av_inv_q(frameRate)
        try check(
            avformat_alloc_output_context2(&formatContext, nil, "mp4", path), "avformat_alloc_output_context2"
        )
        let formatContext = try require(formatContext, "avformat_alloc_output_context2")
        guard let stream = avformat_new_stream(formatContext, nil) else {
            avformat_free_context(formatContext)
            throw MediaError.failure("avformat_new_stream", "returned NULL")
        }
        self.stream = stream
        do throws(MediaError) {
            try check(
                avcodec_parameters_copy(stream.pointee.codecpar, reference.stream.pointee.codecpar),
                "avcodec_parameters_copy")
            // The source's tag belongs to its container; the MP4 muxer picks its own (avc1).
            stream.pointee.codecpar.pointee.codec_tag = 0
            stream.pointee.time_base = frameTimeBase
            stream.pointee.avg_frame_rate = frameRate
            stream.pointee.r_frame_rate = frameRate
            packet = try require(av_packet_alloc(), "av_packet_alloc")
            if let audioSource {
                audio = try AACTrackEncoder(
                    source: audioSource, formatContext: formatContext,
                    globalHeader: formatContext.pointee.oformat.pointee.flags & kiln_avfmt_globalheader()
                        != 0,
                    frameRateNumerator: Int(frameRate.num), frameRateDenominator: Int(frameRate.den))
            }
            if let audioTrack {
                audioCopy = try AACTrackCopy(
                    path: audioTrack, output: formatContext, frameTimeBase: frameTimeBase)
            }
            if formatContext.pointee.oformat.pointee.flags & kiln_avfmt_flag_nofile() == 0 {
                try check(avio_open(&formatContext.pointee.pb, path, kiln_avio_flag_write()), "avio_open")
            }
            var options: OpaquePointer? = nil
            defer { av_dict_free(&options) }
            if faststart { try check(av_dict_set(&options, "movflags", "+faststart", 0), "av_dict_set") }
            try check(avformat_write_header(formatContext, &options), "avformat_write_header")
        } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    func write(_ segments: [String]) throws(MediaError) -> AssemblySummary {
        guard let formatContext else { throw MediaError.failure("SegmentAssembler", "output is closed") }
        do throws(MediaError) {
            var counts: [Int] = []
            var written: Int64 = 0
            for (index, path) in segments.enumerated() {
                // Reopened one at a time, so a long list never holds every file open, and checked
                // again in case a file was replaced since the first pass.
                let reader = try SegmentReader(path: path)
                try reader.checkMatches(reference, index: index)
                counts.append(try copy(reader, startingAt: written))
                written += Int64(counts[index])
            }
            try audio?.finish(videoFrames: Int(written), write: writeInterleaved)
            try audioCopy?.finish(write: writeInterleaved)
            try check(av_write_trailer(formatContext), "av_write_trailer")
            try check(avio_closep(&formatContext.pointee.pb), "avio_closep")
            let summary = AssemblySummary(
                frameCount: Int(written), segmentFrameCounts: counts,
                frameRateNumerator: Int(frameRate.num), frameRateDenominator: Int(frameRate.den),
                durationSeconds: Double(written) * av_q2d(frameTimeBase), audioSamples: audio?.samplesEncoded)
            release()
            return summary
        } catch {
            release()
            throw error
        }
    }

    /// Copies one segment's packets, presentation frames shifted by the frames before it and decode
    /// timestamps renumbered as (decode index − delay), so they rise by exactly one frame across
    /// the joins even where segments started with different delays (a segment shorter than x264's
    /// B-frame lookahead starts with none).
    private func copy(_ reader: SegmentReader, startingAt base: Int64) throws(MediaError) -> Int {
        guard let packet else { return 0 }
        while let frame = try reader.next(packet) {
            let decodeIndex = base + Int64(reader.packetsRead - 1)
            let pts = base + frame.presentation
            let dts = decodeIndex - delay
            guard dts <= pts else {
                av_packet_unref(packet)
                throw reader.refusal("reorders frames deeper than its first packet's decoder delay")
            }
            packet.pointee.pts = av_rescale_q(pts, frameTimeBase, stream.pointee.time_base)
            packet.pointee.dts = av_rescale_q(dts, frameTimeBase, stream.pointee.time_base)
            packet.pointee.duration = av_rescale_q(1, frameTimeBase, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            packet.pointee.pos = -1
            try writeInterleaved(packet)
            try audio?.encode(throughVideoFrame: Int(decodeIndex + 1), write: writeInterleaved)
            try audioCopy?.copy(throughVideoFrame: Int(decodeIndex + 1), write: writeInterleaved)
        }
        try reader.checkComplete()
        return reader.packetsRead
    }

    private func writeInterleaved(_ packet: UnsafeMutablePointer<AVPacket>) throws(MediaError) {
        try Muxer.writeInterleaved(packet, to: formatContext)
    }

    private func release() {
        Muxer.close(&formatContext)
        audio?.release()
        audio = nil
        audioCopy?.release()
        audioCopy = nil
        av_packet_free(&packet)
    }
}

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
