import CFFmpeg

/// Decodes a file's best audio stream (WAV, MP3, AAC/M4A, FLAC, Opus… whatever libavcodec reads)
/// and hands it out resampled to `AudioFormat` through libswresample, block by block, so memory
/// stays flat however long the file is.
///
/// Samples are counted from the stream's first decoded sample (the encoder priming an MP4's edit
/// list hides is already skipped by libavcodec). Packets that fail to decode are skipped and
/// counted, as players do; a damaged container is an error.
public final class AudioFileReader {
    public let path: String
    public private(set) var info = AudioStreamInfo(
        codecName: "", sampleRate: 0, channels: 0, startSeconds: 0, durationSeconds: 0)
    /// Packets the decoder rejected (skipped, their samples missing).
    public private(set) var decodeErrors = 0

    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    /// What `resampler` was opened for. A decoder may change it mid-stream (MP3 frames joined
    /// from files of other rates or channel counts), and libswresample reads as many input planes
    /// as it was told of: fed a frame of more channels, it reads planes that are not there.
    private var resamplerInput: ResamplerInput?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var fifo: OpaquePointer?
    private var streamIndex: Int32 = -1
    private var endOfInput = false
    private let scratch = StereoScratch()

    /// Played `speed` times as fast: the samples are resampled as if recorded at `speed` times
    /// their rate, so the sound is shorter and higher (as a clip's sound when the clip is sped up).
    public let speed: Double

    public init(path: String, speed: Double = 1) throws(MediaError) {
        self.path = path
        self.speed = speed.isFinite && speed > 0 ? speed : 1
        try check(avformat_open_input(&formatContext, path, nil, nil), "avformat_open_input")
        guard let formatContext else { throw MediaError.failure("avformat_open_input", "returned NULL") }
        do throws(MediaError) {
            try check(avformat_find_stream_info(formatContext, nil), "avformat_find_stream_info")
            let index = av_find_best_stream(formatContext, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
            guard index >= 0 else {
                throw MediaError(function: "av_find_best_stream", code: index, message: "no audio stream")
            }
            streamIndex = index
            let stream = formatContext.pointee.streams[Int(index)]!
            let parameters = stream.pointee.codecpar!
            let codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
            let decoder = try require(
                avcodec_find_decoder(parameters.pointee.codec_id), "avcodec_find_decoder",
                "no decoder for \(codecName)")
            codecContext = try require(avcodec_alloc_context3(decoder), "avcodec_alloc_context3")
            let codecContext = codecContext!
            try check(
                avcodec_parameters_to_context(codecContext, parameters), "avcodec_parameters_to_context")
            codecContext.pointee.pkt_timebase = stream.pointee.time_base
            try check(avcodec_open2(codecContext, decoder, nil), "avcodec_open2")
            guard codecContext.pointee.sample_rate > 0, codecContext.pointee.ch_layout.nb_channels > 0 else {
                throw MediaError.failure(
                    "avcodec_open2", "the \(codecName) stream has no sample rate or channels")
            }
            try Self.checkSampleRate(
                codecContext.pointee.sample_rate, codecName: codecName, before: "avcodec_open2")
            info = Self.describe(stream: stream, format: formatContext, codecName: codecName)
            packet = try require(av_packet_alloc(), "av_packet_alloc")
            frame = try require(av_frame_alloc(), "av_frame_alloc")
            fifo = try require(
                av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, Int32(AudioFormat.channels), 4096),
                "av_audio_fifo_alloc")
        } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    /// Fills `left` and `right` (same count) with the next samples; returns how many it wrote,
    /// fewer than asked only at the end of the stream.
    public func read(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int)
        throws(MediaError) -> Int
    {
        guard let fifo else { return 0 }
        while Int(av_audio_fifo_size(fifo)) < count && !endOfInput {
            try decodeMore()
        }
        let available = min(count, Int(av_audio_fifo_size(fifo)))
        guard available > 0 else { return 0 }
        var planes: [UnsafeMutableRawPointer?] = [
            UnsafeMutableRawPointer(left), UnsafeMutableRawPointer(right),
        ]
        let read = planes.withUnsafeMutableBufferPointer {
            av_audio_fifo_read(fifo, $0.baseAddress, Int32(available))
        }
        try check(read, "av_audio_fifo_read")
        return Int(read)
    }

    /// Skips `count` samples (or to the end); returns how many were skipped.
    public func skip(_ count: Int) throws(MediaError) -> Int {
        var skipped = 0
        let block = 4096
        var left = [Float](repeating: 0, count: block), right = left
        while skipped < count {
            let n = try left.withUnsafeMutableBufferPointer { l throws(MediaError) in
                try right.withUnsafeMutableBufferPointer { r throws(MediaError) in
                    try read(left: l.baseAddress!, right: r.baseAddress!, count: min(block, count - skipped))
                }
            }
            if n == 0 { break }
            skipped += n
        }
        return skipped
    }

    /// Every remaining sample, for tests and short files.
    public func readAll() throws(MediaError) -> (left: [Float], right: [Float]) {
        var left: [Float] = [], right: [Float] = []
        let block = 4096
        var l = [Float](repeating: 0, count: block), r = l
        while true {
            let n = try l.withUnsafeMutableBufferPointer { lp throws(MediaError) in
                try r.withUnsafeMutableBufferPointer { rp throws(MediaError) in
                    try read(left: lp.baseAddress!, right: rp.baseAddress!, count: block)
                }
            }
            if n == 0 { break }
            left += l[0..<n]
            right += r[0..<n]
        }
        return (left, right)
    }

    // MARK: - Decoding

    private func decodeMore() throws(MediaError) {
        guard let formatContext, let codecContext, let packet else { return }
        while true {
            let status = av_read_frame(formatContext, packet)
            if status == kiln_averror_eof() {
                // Drain the decoder, then the resampler's buffered tail.
                _ = avcodec_send_packet(codecContext, nil)
                try receiveFrames()
                try resample(nil)
                endOfInput = true
                return
            }
            try check(status, "av_read_frame")
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            if avcodec_send_packet(codecContext, packet) < 0 {
                decodeErrors += 1
                continue
            }
            try receiveFrames()
            return
        }
    }

    private func receiveFrames() throws(MediaError) {
        guard let codecContext, let frame else { return }
        while true {
            let status = avcodec_receive_frame(codecContext, frame)
            if status == kiln_averror_eagain() || status == kiln_averror_eof() { return }
            if status < 0 {
                decodeErrors += 1
                return
            }
            defer { av_frame_unref(frame) }
            try resample(frame)
        }
    }

    /// Converts one decoded frame (or, with nil, the resampler's remaining delay) into the FIFO.
    private func resample(_ input: UnsafeMutablePointer<AVFrame>?) throws(MediaError) {
        if let input {
            let shape = ResamplerInput(input.pointee)
            if resampler != nil, shape != resamplerInput {
                // The old layout's delayed tail first, then a resampler for the new one.
                try resample(nil)
                swr_free(&resampler)
            }
            if resampler == nil {
                try openResampler(for: input)
                resamplerInput = shape
            }
        }
        guard let resampler, let fifo else { return }
        let inputCount = input?.pointee.nb_samples ?? 0
        let capacity = Int(swr_get_out_samples(resampler, inputCount))
        guard capacity > 0 else { return }
        scratch.reserve(capacity)
        var outputs: [UnsafeMutablePointer<UInt8>?] = scratch.planes.map {
            UnsafeMutableRawPointer($0).assumingMemoryBound(to: UInt8.self)
        }
        // libswresample reads the input planes through `const uint8_t **`.
        let inputPlanes = input.map {
            UnsafeMutableRawPointer($0.pointee.extended_data).assumingMemoryBound(
                to: UnsafePointer<UInt8>?.self)
        }
        let converted = outputs.withUnsafeMutableBufferPointer {
            swr_convert(resampler, $0.baseAddress, Int32(capacity), inputPlanes, inputCount)
        }
        try check(converted, "swr_convert")
        var planes: [UnsafeMutableRawPointer?] = scratch.planes.map { UnsafeMutableRawPointer($0) }
        let written = planes.withUnsafeMutableBufferPointer {
            av_audio_fifo_write(fifo, $0.baseAddress, converted)
        }
        try check(written, "av_audio_fifo_write")
    }

    /// A rate outside `AudioFormat.inputSampleRates` is refused before a resampler is made for it.
    private static func checkSampleRate(_ rate: Int32, codecName: String, before function: String)
        throws(MediaError)
    {
        guard AudioFormat.inputSampleRates.contains(rate) else {
            throw MediaError.failure(
                function,
                "the \(codecName) stream says \(rate) Hz; expected \(AudioFormat.inputSampleRates.lowerBound)…"
                    + "\(AudioFormat.inputSampleRates.upperBound) Hz")
        }
    }

    private func openResampler(for input: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        try Self.checkSampleRate(input.pointee.sample_rate, codecName: "decoded", before: "swr_init")
        var inputLayout = AVChannelLayout()
        defer { av_channel_layout_uninit(&inputLayout) }
        // Files without a channel mask (many WAVs) get the usual layout for their channel count.
        if input.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&inputLayout, input.pointee.ch_layout.nb_channels)
        } else {
            try check(
                av_channel_layout_copy(&inputLayout, &input.pointee.ch_layout), "av_channel_layout_copy")
        }
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, Int32(AudioFormat.channels))
        defer { av_channel_layout_uninit(&outputLayout) }
        try check(
            swr_alloc_set_opts2(
                &resampler, &outputLayout, AV_SAMPLE_FMT_FLTP, Int32(AudioFormat.sampleRate), &inputLayout,
                AVSampleFormat(rawValue: input.pointee.format),
                Int32((Double(input.pointee.sample_rate) * speed).rounded()), 0, nil),
            "swr_alloc_set_opts2")
        try check(swr_init(resampler), "swr_init")
    }

    private static func describe(
        stream: UnsafeMutablePointer<AVStream>, format: UnsafeMutablePointer<AVFormatContext>,
        codecName: String
    ) -> AudioStreamInfo {
        let parameters = stream.pointee.codecpar.pointee
        func seconds(_ value: Int64, _ base: AVRational) -> Double? {
            value == kiln_av_nopts_value() || value < 0 ? nil : Double(value) * av_q2d(base)
        }
        let duration =
            seconds(stream.pointee.duration, stream.pointee.time_base)
            ?? seconds(format.pointee.duration, AVRational(num: 1, den: AV_TIME_BASE)) ?? 0
        return AudioStreamInfo(
            codecName: codecName, sampleRate: Int(parameters.sample_rate),
            channels: Int(parameters.ch_layout.nb_channels),
            startSeconds: seconds(stream.pointee.start_time, stream.pointee.time_base) ?? 0,
            durationSeconds: duration)
    }

    private func release() {
        scratch.release()
        swr_free(&resampler)
        if let fifo { av_audio_fifo_free(fifo) }
        fifo = nil
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codecContext)
        avformat_close_input(&formatContext)
    }
}

/// The input side of a resampler: frames that differ in any of these need another one.
private struct ResamplerInput: Equatable {
    let channels: Int32
    let sampleFormat: Int32
    let sampleRate: Int32

    init(_ frame: AVFrame) {
        channels = frame.ch_layout.nb_channels
        sampleFormat = frame.format
        sampleRate = frame.sample_rate
    }
}
