import CFFmpeg

/// Joins video-only MP4 segments (as `VideoFileWriter` writes them: same settings, each starting
/// with an IDR frame, closed GOPs) into one MP4 by stream copy through libavformat: no decode,
/// no re-encode. Optionally adds one AAC track for the whole timeline, encoded here once so it has
/// no seams at the joins.
public enum SegmentAssembler {
    /// Writes the joined file to `path` (the caller's temporary name). On failure everything is
    /// closed and the partial file is left for the caller to delete.
    ///
    /// The soundtrack is either encoded here from `audio`, or copied from `audioTrack`, an
    /// `AACTrackFile` encoded earlier (while the segments rendered); not both.
    @discardableResult
    public static func assemble(
        segments: [String], to path: String, audio: (any AudioSampleSource)? = nil, audioTrack: String? = nil,
        faststart: Bool = true, tags: [ContainerTags.Tag] = []
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
            delay: delay, tags: tags)
        return try output.write(segments)
    }
}

/// The output file of one assembly. Frame units throughout (1/fps), rescaled to the stream's time
/// base only when a packet is handed to the muxer.
private final class AssemblyOutput {
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var audio: AudioTrackEncoder?
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
        faststart: Bool, delay: Int64, tags: [ContainerTags.Tag]
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
                audio = try AudioTrackEncoder(
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
            try ContainerTags(known: tags).apply(to: formatContext)
            let movflags = (faststart ? "+faststart" : "") + (tags.isEmpty ? "" : "+use_metadata_tags")
            if !movflags.isEmpty { try check(av_dict_set(&options, "movflags", movflags, 0), "av_dict_set") }
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
