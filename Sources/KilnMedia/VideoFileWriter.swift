import CFFmpeg

/// A video file through libavformat in one of `VideoCodec`'s formats: H.264 (libx264) or HEVC
/// (libx265) in MP4 and VP9 (libvpx) in WebM from 8-bit YUV 4:2:0 planes (BT.709, limited range,
/// chroma sited left); ProRes 4444 (prores_ks) in MOV, animated GIF (`GIFAnimationWriter`) and
/// animated WebP (libwebp_anim) from straight-alpha RGBA, keeping its transparency. With an audio source, an
/// AAC (MP4, MOV) or Opus (WebM) track (48 kHz stereo) is encoded alongside, exactly as long as
/// the video, and interleaved with it.
///
/// `@unchecked Sendable` so it can be handed to an encoder thread; it has no internal locking and
/// must be used from one thread at a time.
public final class VideoFileWriter: @unchecked Sendable {
    private enum State { case open, finished, closed }

    public let settings: VideoSettings
    public private(set) var framesAppended = 0
    /// Video packets written to the file so far: the frames really done, since the encoder holds
    /// some frames back to look ahead and hands them over only later (many at the flush).
    public private(set) var framesWritten = 0
    /// Called on the writing thread after each video packet is written, with `framesWritten`.
    public var onFrameWritten: ((Int) -> Void)?

    private var state = State.closed
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    // Reused for every frame/packet so steady-state appends allocate nothing of ours.
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var audio: AudioTrackEncoder?
    /// RGBA → YUVA 4:4:4 10-bit for ProRes.
    private var converter: ScaleContext?
    /// What the file says of how it was made (for the containers that carry tags).
    private let tags: ContainerTags
    /// Values for `tags.late`, set before `finish`; the render time is the writer's own.
    public var lateTagValues: [String: String] = [:]
    private let path: String
    private let opened = ContinuousClock.now
    /// GIF is written by Kiln, not libavcodec (see `GIFAnimationWriter`).
    private var gif: GIFAnimationWriter?

    public init(
        path: String, settings: VideoSettings, audio: (any AudioSampleSource)? = nil,
        tags: ContainerTags = ContainerTags()
    )
        throws(MediaError)
    {
        self.settings = settings
        self.path = path
        self.tags = settings.codec.carriesTags ? tags : ContainerTags()
        do throws(MediaError) {
            try settings.validate()
            try open(path: path, audioSource: audio)
            state = .open
        } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    /// Appends the next frame of a YUV 4:2:0 codec (`VideoCodec.input`); pts = number of frames
    /// appended so far (constant frame rate).
    public func append(
        y: UnsafePointer<UInt8>, yStride: Int, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, uvStride: Int
    ) throws(MediaError) {
        try appendFrame(expecting: .yuv420) { frame in
            let width = Int32(settings.width), height = Int32(settings.height)
            av_image_copy_plane(
                frame.pointee.data.0, frame.pointee.linesize.0, y, Int32(yStride), width, height)
            av_image_copy_plane(
                frame.pointee.data.1, frame.pointee.linesize.1, u, Int32(uvStride), (width + 1) / 2,
                (height + 1) / 2)
            av_image_copy_plane(
                frame.pointee.data.2, frame.pointee.linesize.2, v, Int32(uvStride), (width + 1) / 2,
                (height + 1) / 2)
        }
    }

    /// Appends the next frame of an RGBA codec (`VideoCodec.input`): straight-alpha RGBA8,
    /// `stride` bytes a row.
    public func append(rgba: UnsafePointer<UInt8>, stride: Int) throws(MediaError) {
        if let gif {
            guard state == .open else {
                throw MediaError.failure(
                    "VideoFileWriter.append", "writer is \(state == .finished ? "finished" : "closed")")
            }
            do throws(MediaError) {
                try gif.append(rgba: rgba, stride: stride)
            } catch {
                release()
                throw error
            }
            framesAppended += 1
            // Every frame is done once appended: drawn, or left out with its time given to another.
            framesWritten = framesAppended
            onFrameWritten?(framesWritten)
            return
        }
        try appendFrame(expecting: .rgba) { frame in
            switch settings.codec {
            case .prores4444:
                converter?.scale(
                    source: planes(rgba), sourceStrides: strides(stride),
                    destination: planes(
                        frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, frame.pointee.data.3
                    ),
                    destinationStrides: withUnsafeBytes(of: frame.pointee.linesize) {
                        Array($0.bindMemory(to: Int32.self).prefix(4))
                    })
            default:
                // BGRA for libwebp: swap R and B.
                for y in 0..<settings.height {
                    let from = rgba + y * stride,
                        to = frame.pointee.data.0! + y * Int(frame.pointee.linesize.0)
                    for x in 0..<settings.width {
                        to[4 * x] = from[4 * x + 2]
                        to[4 * x + 1] = from[4 * x + 1]
                        to[4 * x + 2] = from[4 * x]
                        to[4 * x + 3] = from[4 * x + 3]
                    }
                }
            }
        }
    }

    private func appendFrame(
        expecting input: VideoCodec.Input, fill: (UnsafeMutablePointer<AVFrame>) -> Void
    ) throws(MediaError) {
        guard state == .open, let frame, let codecContext else {
            throw MediaError.failure(
                "VideoFileWriter.append", "writer is \(state == .finished ? "finished" : "closed")")
        }
        guard settings.codec.input == input else {
            throw MediaError.failure(
                "VideoFileWriter.append", "\(settings.codec.rawValue) is fed \(settings.codec.input) frames")
        }
        do throws(MediaError) {
            // The encoder may still reference the previous buffer; this only copies if it does.
            try check(av_frame_make_writable(frame), "av_frame_make_writable")
            fill(frame)
            frame.pointee.pts = Int64(framesAppended)
            try check(avcodec_send_frame(codecContext, frame), "avcodec_send_frame")
            framesAppended += 1
            try writeAvailablePackets()
            try audio?.encode(throughVideoFrame: framesAppended, write: writeInterleaved)
        } catch {
            release()
            throw error
        }
    }

    /// Flushes the encoder, writes the trailer (moov moved to the front when faststart), closes the file.
    /// Returns the number of frames written.
    @discardableResult
    public func finish() throws(MediaError) -> Int {
        guard state == .open else {
            throw MediaError.failure(
                "VideoFileWriter.finish", "writer is \(state == .finished ? "finished" : "closed")")
        }
        do throws(MediaError) {
            if let gif { _ = try gif.finish() } else { try finishEncoding() }
            let elapsed = ContinuousClock.now - opened
            RenderTimeAttribute.record(
                Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
                path: path)
        } catch {
            release()
            throw error
        }
        release()
        state = .finished
        return framesAppended
    }

    /// The libavcodec formats' end: the encoder flushed, the trailer written, the late tags filled.
    private func finishEncoding() throws(MediaError) {
        guard let codecContext, let formatContext else {
            throw MediaError.failure("VideoFileWriter.finish", "writer has no encoder")
        }
        try check(avcodec_send_frame(codecContext, nil), "avcodec_send_frame")
        try writeAvailablePackets()
        try audio?.finish(videoFrames: framesAppended, write: writeInterleaved)
        try check(av_write_trailer(formatContext), "av_write_trailer")
        try check(avio_closep(&formatContext.pointee.pb), "avio_closep")
        try tags.fill(lateTagValues, in: path)
    }

    /// Closes everything without a trailer (the caller deletes the file). Safe to call twice / after finish.
    public func abort() {
        release()
    }

    // MARK: - Setup

    private func open(path: String, audioSource: (any AudioSampleSource)?) throws(MediaError) {
        let codecChoice = settings.codec
        if codecChoice == .gif {
            guard audioSource == nil else {
                throw MediaError.failure("VideoFileWriter", "gif cannot carry audio")
            }
            gif = try GIFAnimationWriter(
                path: path, width: settings.width, height: settings.height,
                frameRateNumerator: settings.frameRateNumerator,
                frameRateDenominator: settings.frameRateDenominator,
                options: GIFAnimationWriter.Options(
                    maxBytes: settings.maxBytes, expectedFrames: settings.expectedFrames))
            return
        }
        try check(
            avformat_alloc_output_context2(&formatContext, nil, codecChoice.muxerName, path),
            "avformat_alloc_output_context2"
        )
        let formatContext = try require(formatContext, "avformat_alloc_output_context2")
        let codec = try require(
            avcodec_find_encoder_by_name(codecChoice.encoderName), "avcodec_find_encoder_by_name",
            "\(codecChoice.encoderName) is not available")
        let stream = try require(avformat_new_stream(formatContext, nil), "avformat_new_stream")
        self.stream = stream
        codecContext = avcodec_alloc_context3(codec)
        let codecContext = try require(codecContext, "avcodec_alloc_context3")

        try configure(
            codecContext,
            globalHeader: formatContext.pointee.oformat.pointee.flags & kiln_avfmt_globalheader() != 0)
        try check(avcodec_open2(codecContext, codec, nil), "avcodec_open2")

        try check(
            avcodec_parameters_from_context(stream.pointee.codecpar, codecContext),
            "avcodec_parameters_from_context")
        if codecChoice == .hevc {
            // hvc1 (parameter sets in the sample entry) is the tag Apple's players and browsers take.
            stream.pointee.codecpar.pointee.codec_tag = fourCC("hvc1")
        }
        // A hint only: the MP4 muxer picks its own timescale in avformat_write_header.
        stream.pointee.time_base = codecContext.pointee.time_base
        stream.pointee.avg_frame_rate = codecContext.pointee.framerate
        stream.pointee.r_frame_rate = codecContext.pointee.framerate

        try allocateFrameAndPacket()
        if let audioSource {
            guard let audioCodec = codecChoice.audioCodec else {
                throw MediaError.failure("VideoFileWriter", "\(codecChoice.rawValue) cannot carry audio")
            }
            audio = try AudioTrackEncoder(
                source: audioSource, formatContext: formatContext,
                globalHeader: formatContext.pointee.oformat.pointee.flags & kiln_avfmt_globalheader() != 0,
                frameRateNumerator: settings.frameRateNumerator,
                frameRateDenominator: settings.frameRateDenominator, codec: audioCodec)
        }
        switch codecChoice {
        case .prores4444:
            converter = try ScaleContext(
                width: settings.width, height: settings.height, from: AV_PIX_FMT_RGBA,
                to: AV_PIX_FMT_YUVA444P10LE,
                flags: SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP | SWS_BITEXACT)
            try converter?.setColorspace(SWS_CS_ITU709, sourceFullRange: true, destinationFullRange: false)
        default:
            break
        }

        if formatContext.pointee.oformat.pointee.flags & kiln_avfmt_flag_nofile() == 0 {
            try check(avio_open(&formatContext.pointee.pb, path, kiln_avio_flag_write()), "avio_open")
        }
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        if codecChoice == .webp {
            // Animations loop forever, as people expect of a GIF (WebP's muxer would play once).
            try check(av_dict_set(&options, "loop", "0", 0), "av_dict_set")
        }
        try tags.apply(to: formatContext)
        var movflags = ""
        if settings.faststart && codecChoice.muxerName == "mp4" { movflags += "+faststart" }
        // Without it MP4 and MOV keep only the keys iTunes knows, and drop kiln_*.
        if !tags.known.isEmpty || !tags.late.isEmpty, ["mp4", "mov"].contains(codecChoice.muxerName) {
            movflags += "+use_metadata_tags"
        }
        if !movflags.isEmpty {
            try check(av_dict_set(&options, "movflags", movflags, 0), "av_dict_set")
        }
        try check(avformat_write_header(formatContext, &options), "avformat_write_header")
    }

    private func configure(_ context: UnsafeMutablePointer<AVCodecContext>, globalHeader: Bool)
        throws(MediaError)
    {
        let rate = AVRational(
            num: Int32(settings.frameRateNumerator), den: Int32(settings.frameRateDenominator))
        context.pointee.width = Int32(settings.width)
        context.pointee.height = Int32(settings.height)
        context.pointee.pix_fmt = settings.codec.pixelFormat
        context.pointee.time_base = av_inv_q(rate)
        context.pointee.framerate = rate
        context.pointee.gop_size = Int32(settings.gop)
        context.pointee.thread_count = Int32(settings.encoderThreads)
        if settings.codec.carriesColorTags { BT709Tags.apply(to: context) }
        if globalHeader {
            context.pointee.flags |= kiln_codec_flag_global_header()
        }
        let options = context.pointee.priv_data
        func set(_ name: String, _ value: String) throws(MediaError) {
            try check(av_opt_set(options, name, value, 0), "av_opt_set(\(name)=\(value))")
        }
        switch settings.codec {
        case .h264:
            try set("crf", String(settings.crf))
            try set("preset", settings.preset)
        case .hevc:
            try set("crf", String(settings.crf))
            try set("preset", settings.preset)
            // x265 reports every encode on stderr unless told otherwise.
            try set("x265-params", "log-level=error")
        case .vp9:
            // Constant quality: crf with no bit-rate target.
            context.pointee.bit_rate = 0
            try set("crf", String(Int(settings.crf.rounded())))
            try set("deadline", settings.preset)
            // libvpx's default cpu-used (1) is several times slower than x264's medium for little gain.
            try set("cpu-used", settings.preset == "best" ? "1" : settings.preset == "good" ? "4" : "8")
            try set("row-mt", "1")
        case .prores4444:
            try set("profile", "4444")
            // Apple's vendor code: some editors only trust ProRes that claims it.
            try set("vendor", "apl0")
        case .gif:
            break
        case .webp:
            try set("quality", String(VideoSettings.webPQuality))
        }
    }

    private func allocateFrameAndPacket() throws(MediaError) {
        frame = av_frame_alloc()
        let frame = try require(frame, "av_frame_alloc")
        frame.pointee.format = settings.codec.pixelFormat.rawValue
        frame.pointee.width = Int32(settings.width)
        frame.pointee.height = Int32(settings.height)
        if settings.codec.carriesColorTags { BT709Tags.apply(to: frame) }
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
        packet = try require(av_packet_alloc(), "av_packet_alloc")
    }

    // MARK: - Encoding

    private func writeAvailablePackets() throws(MediaError) {
        guard let codecContext, let stream, let packet else { return }
        while true {
            let status = avcodec_receive_packet(codecContext, packet)
            if status == kiln_averror_eagain() || status == kiln_averror_eof() { return }
            try check(status, "avcodec_receive_packet")
            // One frame per packet at constant rate, so the container duration is frames / fps exactly.
            if packet.pointee.duration == 0 { packet.pointee.duration = 1 }
            av_packet_rescale_ts(packet, codecContext.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            try writeInterleaved(packet)
            framesWritten += 1
            onFrameWritten?(framesWritten)
        }
    }

    private func writeInterleaved(_ packet: UnsafeMutablePointer<AVPacket>) throws(MediaError) {
        try Muxer.writeInterleaved(packet, to: formatContext)
    }

    private func release() {
        Muxer.close(&formatContext)
        stream = nil
        audio?.release()
        audio = nil
        avcodec_free_context(&codecContext)
        av_frame_free(&frame)
        av_packet_free(&packet)
        converter = nil
        gif?.abort()
        gif = nil
        if state == .open { state = .closed }
    }
}

/// A four-character code as FFmpeg stores it (first character in the low byte).
func fourCC(_ text: String) -> UInt32 {
    text.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
}
