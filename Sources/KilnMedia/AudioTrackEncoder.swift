import CFFmpeg

/// The audio codecs a video's track is encoded with.
enum AudioTrackCodec: Sendable {
    /// FFmpeg's native AAC-LC: MP4 and MOV.
    case aac
    /// libopus: WebM (which cannot carry AAC).
    case opus

    var encoderName: String { self == .aac ? "aac" : "libopus" }
    var bitRate: Int { self == .aac ? 192_000 : 160_000 }
    /// libopus takes interleaved samples only; the AAC encoder planar ones.
    var sampleFormat: AVSampleFormat { self == .aac ? AV_SAMPLE_FMT_FLTP : AV_SAMPLE_FMT_FLT }
}

/// A video's audio track: AAC-LC or Opus (`AudioTrackCodec`) at `AudioFormat` (48 kHz stereo), fed
/// from an `AudioSampleSource` in step with the video so the muxer interleaves them closely, and
/// ended exactly where the video ends. Shared by `VideoFileWriter` and `SegmentAssembler`, so a
/// monolithic file and an assembled one get the same track.
final class AudioTrackEncoder {
    static let bitRate = AudioTrackCodec.aac.bitRate

    private let source: any AudioSampleSource
    private let interleaved: Bool
    /// Planar samples from the source before they are interleaved (Opus only).
    private var planarScratch: [Float] = []
    private let frameRateNumerator: Int
    private let frameRateDenominator: Int
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    let stream: UnsafeMutablePointer<AVStream>
    private var frameSize = 1024
    private var smallLastFrame = false
    /// Samples handed to the encoder so far (= the next frame's pts).
    private(set) var samplesEncoded = 0

    init(
        source: any AudioSampleSource, formatContext: UnsafeMutablePointer<AVFormatContext>,
        globalHeader: Bool, frameRateNumerator: Int, frameRateDenominator: Int,
        codec audioCodec: AudioTrackCodec = .aac
    ) throws(MediaError) {
        self.source = source
        self.frameRateNumerator = frameRateNumerator
        self.frameRateDenominator = frameRateDenominator
        interleaved = audioCodec.sampleFormat == AV_SAMPLE_FMT_FLT
        let codec = try require(
            avcodec_find_encoder_by_name(audioCodec.encoderName), "avcodec_find_encoder_by_name",
            "no \(audioCodec.encoderName) encoder in this FFmpeg")
        stream = try require(avformat_new_stream(formatContext, nil), "avformat_new_stream")
        codecContext = try require(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
        let context = codecContext!
        context.pointee.sample_fmt = audioCodec.sampleFormat
        context.pointee.sample_rate = Int32(AudioFormat.sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(AudioFormat.channels))
        context.pointee.bit_rate = Int64(audioCodec.bitRate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(AudioFormat.sampleRate))
        if globalHeader { context.pointee.flags |= kiln_codec_flag_global_header() }
        do throws(MediaError) {
            try check(avcodec_open2(context, codec, nil), "avcodec_open2(aac)")
            try check(
                avcodec_parameters_from_context(stream.pointee.codecpar, context),
                "avcodec_parameters_from_context")
            stream.pointee.time_base = context.pointee.time_base
            let variable = codec.pointee.capabilities & kiln_codec_cap_variable_frame_size() != 0
            frameSize = variable || context.pointee.frame_size <= 0 ? 1024 : Int(context.pointee.frame_size)
            smallLastFrame = variable || codec.pointee.capabilities & kiln_codec_cap_small_last_frame() != 0
            frame = try require(av_frame_alloc(), "av_frame_alloc")
            frame!.pointee.format = audioCodec.sampleFormat.rawValue
            frame!.pointee.sample_rate = context.pointee.sample_rate
            frame!.pointee.nb_samples = Int32(frameSize)
            try check(
                av_channel_layout_copy(&frame!.pointee.ch_layout, &context.pointee.ch_layout),
                "av_channel_layout_copy")
            try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
            packet = try require(av_packet_alloc(), "av_packet_alloc")
            if interleaved { planarScratch = [Float](repeating: 0, count: 2 * frameSize) }
        } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    /// The audio sample at which video frame n starts: n·den/num seconds at 48 kHz, rounded once.
    private func samples(atVideoFrame n: Int) -> Int {
        let rate = AudioFormat.sampleRate
        let (scaled, overflow) = n.multipliedReportingOverflow(by: frameRateDenominator * rate)
        if overflow {
            return Int(
                (Double(n) * Double(frameRateDenominator * rate) / Double(frameRateNumerator)).rounded())
        }
        return (scaled + frameRateNumerator / 2) / frameRateNumerator
    }

    /// Encodes whole encoder frames while they end at or before the start of video frame `frame`.
    func encode(
        throughVideoFrame frame: Int, write: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void
    )
        throws(MediaError)
    {
        try encode(upTo: samples(atVideoFrame: frame), write: write)
    }

    /// Encodes the remainder up to exactly the end of `videoFrames` frames and drains the encoder.
    func finish(videoFrames: Int, write: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void)
        throws(MediaError)
    {
        let sampleCount = samples(atVideoFrame: videoFrames)
        try encode(upTo: sampleCount, write: write)
        let rest = sampleCount - samplesEncoded
        if rest > 0 { try encodeFrame(samples: rest, write: write) }
        try check(avcodec_send_frame(codecContext, nil), "avcodec_send_frame(aac)")
        try drain(write)
    }

    private func encode(
        upTo sampleCount: Int, write: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void
    )
        throws(MediaError)
    {
        while samplesEncoded + frameSize <= sampleCount {
            try encodeFrame(samples: frameSize, write: write)
        }
    }

    private func encodeFrame(samples: Int, write: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void)
        throws(MediaError)
    {
        guard let frame, let codecContext else { return }
        try check(av_frame_make_writable(frame), "av_frame_make_writable")
        // An encoder without small-last-frame support gets the tail padded with silence; the
        // track's duration is then cut back by the packet durations it reports.
        let sent = smallLastFrame ? samples : frameSize
        if interleaved {
            let frameSize = self.frameSize
            let out = UnsafeMutableRawPointer(frame.pointee.data.0!).assumingMemoryBound(to: Float.self)
            try planarScratch.withUnsafeMutableBufferPointer { buffer throws(MediaError) in
                let left = buffer.baseAddress!, right = left + frameSize
                try source.fill(left: left, right: right, count: samples)
                for i in 0..<sent {
                    out[2 * i] = i < samples ? left[i] : 0
                    out[2 * i + 1] = i < samples ? right[i] : 0
                }
            }
        } else {
            let left = UnsafeMutableRawPointer(frame.pointee.data.0!).assumingMemoryBound(to: Float.self)
            let right = UnsafeMutableRawPointer(frame.pointee.data.1!).assumingMemoryBound(to: Float.self)
            try source.fill(left: left, right: right, count: samples)
            if sent > samples {
                (left + samples).update(repeating: 0, count: sent - samples)
                (right + samples).update(repeating: 0, count: sent - samples)
            }
        }
        frame.pointee.nb_samples = Int32(sent)
        frame.pointee.pts = Int64(samplesEncoded)
        try check(avcodec_send_frame(codecContext, frame), "avcodec_send_frame(aac)")
        samplesEncoded += samples
        try drain(write)
    }

    private func drain(_ write: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void)
        throws(MediaError)
    {
        guard let codecContext, let packet else { return }
        while true {
            let status = avcodec_receive_packet(codecContext, packet)
            if status == kiln_averror_eagain() || status == kiln_averror_eof() { return }
            try check(status, "avcodec_receive_packet(aac)")
            av_packet_rescale_ts(packet, codecContext.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            try write(packet)
        }
    }

    func release() {
        avcodec_free_context(&codecContext)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }
}
