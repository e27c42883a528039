import CFFmpeg
import Foundation

/// What a clip's header says, read without keeping a decoder: enough to check it against the
/// resource limits and the job's trim before frames are decoded.
public struct VideoClipFacts: Sendable, Equatable {
    /// The displayed size: the coded size turned by `quarterTurns`.
    public let width: Int
    public let height: Int
    /// Clockwise quarter turns (0…3) the stream's display matrix asks a player for.
    public let quarterTurns: Int
    /// Seconds the container says the stream lasts; nil when it does not say.
    public let duration: Double?
    public let codec: String
}

/// A video clip's frames in presentation order, decoded with libavcodec (threads on) and picked
/// by time as a player shows them: the frame for time t is the last one whose presentation time
/// is at or before t (times count from the first frame's). Increasing times decode forward from
/// where the last request left off, holding only the frame shown and the one after it; a time
/// before the frame held, or beyond a keyframe far ahead, seeks first.
///
/// Not thread-safe: one caller at a time (the video layer's source holds it behind a lock).
public final class VideoClipReader {
    public let facts: VideoClipFacts
    public let path: String

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private let session: CodecSession
    private let timeBase: AVRational
    /// The first frame's presentation time: clip time 0.
    private var origin: Int64 = 0
    /// The frame shown for the last request and the first frame after it, each with its
    /// presentation time when it holds one.
    private let held: UnsafeMutablePointer<AVFrame>
    private var heldTime: Int64?
    private let ahead: UnsafeMutablePointer<AVFrame>
    private var aheadTime: Int64?
    private var lastDecodedTime: Int64?
    private var inputEnded = false
    private var decoderEnded = false
    private var scaler: (key: ScaleKey, context: ScaleContext)?
    /// The upright size pictures are converted to, when smaller than the clip's.
    private let pictureSize: (width: Int, height: Int)?
    /// Seeks done so far (tests check that increasing times do not seek per frame).
    public private(set) var seekCount = 0

    /// Reads the header: the container must open and hold a video stream with a decoder.
    public static func probe(path: String) throws(VideoClipError) -> VideoClipFacts {
        let input = try ClipInput(path: path)
        return try input.facts()
    }

    /// Opens the clip and decodes its first frame, so a file whose data does not decode fails here
    /// rather than halfway through a render. `maxPixels` bounds the decoder's frames as a second
    /// guard behind the caller's check of `probe`'s size. With `scaledTo` (upright, each side at
    /// least 1) pictures come out resampled to that size by a prefiltering bicubic as they are
    /// converted: a clip drawn small costs its drawn size, not its own, in every frame after that.
    public init(path: String, maxPixels: Int, scaledTo size: (width: Int, height: Int)? = nil)
        throws(VideoClipError)
    {
        self.path = path
        let input = try ClipInput(path: path)
        facts = try input.facts()
        pictureSize = size.map { (max($0.width, 1), max($0.height, 1)) }
        let found = input.stream
        guard let heldFrame = av_frame_alloc(), let aheadFrame = av_frame_alloc() else {
            throw .unreadable(path: path, reason: "out of memory")
        }
        held = heldFrame
        ahead = aheadFrame
        stream = found
        timeBase = found.pointee.time_base
        do throws(MediaError) {
            var copied: Int32 = 0
            session = try CodecSession(decoder: found.pointee.codecpar.pointee.codec_id) { codec in
                copied = avcodec_parameters_to_context(codec, found.pointee.codecpar)
                codec.pointee.pkt_timebase = found.pointee.time_base
                // Every core; frame threads decode several frames at once, slice threads split one.
                codec.pointee.thread_count = 0
                codec.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
                codec.pointee.max_pixels = Int64(max(maxPixels, 1))
            }
            try check(copied, "avcodec_parameters_to_context")
        } catch {
            var frames: [UnsafeMutablePointer<AVFrame>?] = [heldFrame, aheadFrame]
            av_frame_free(&frames[0])
            av_frame_free(&frames[1])
            throw VideoClipError(error, path: path)
        }
        format = input.take()
        guard let first = try nextFrame(into: ahead) else {
            throw .corrupt(path: path, reason: "no frame decodes")
        }
        origin = first
        aheadTime = first
    }

    deinit {
        avformat_close_input(&format)
        var frames: [UnsafeMutablePointer<AVFrame>?] = [held, ahead]
        av_frame_free(&frames[0])
        av_frame_free(&frames[1])
    }

    /// The presentation time (in ticks of the stream's time base, from the first frame) of the
    /// frame shown at `seconds` of the clip: the last frame at or before it, or the first frame
    /// for a time before that. With `excluding`, the last frame strictly before `seconds` (the
    /// last frame of a clip cut at `seconds`). `pixels()` then gives that frame's picture.
    public func positionFrame(atSeconds seconds: Double, excluding: Bool = false) throws(VideoClipError)
        -> Int64
    {
        let exact = seconds * Double(timeBase.den) / Double(timeBase.num)
        // Tolerance for times computed in floating point that land exactly on a frame's start.
        let ticks = excluding ? (exact - 1e-6).rounded(.up) - 1 : (exact + 1e-6).rounded(.down)
        let bound = Double(Int64.max / 4)
        let target = origin + Int64(min(max(ticks, 0), bound))
        try position(at: target)
        return (heldTime ?? origin) - origin
    }

    /// The frame `positionFrame` chose, as straight RGBA turned upright by the display matrix.
    public func pixels() throws(VideoClipError) -> DecodedImage {
        guard heldTime != nil else { throw .corrupt(path: path, reason: "no frame decodes") }
        do throws(MediaError) {
            let (rgba, width, height) = try convert(held)
            return Self.turned(rgba, width: width, height: height, quarterTurns: facts.quarterTurns)
        } catch {
            throw VideoClipError(error, path: path)
        }
    }

    // MARK: - Choosing frames

    private func position(at target: Int64) throws(VideoClipError) {
        if let shown = heldTime, target >= shown {
            if let next = aheadTime, target < next { return }
            if aheadTime == nil, decoderEnded { return }
            if worthSeeking(from: lastDecodedTime ?? shown, to: target) { try seek(to: target) }
        } else if heldTime != nil {
            try seek(to: target)
        }
        try advance(to: target)
        if heldTime == nil {
            // The seek landed after the target (an inexact index): start from the beginning.
            try seek(to: origin)
            try advance(to: target)
        }
        if heldTime == nil, let next = aheadTime {
            // The target precedes every frame: the first is shown.
            av_frame_unref(held)
            av_frame_move_ref(held, ahead)
            heldTime = next
            aheadTime = nil
        }
        guard heldTime != nil else { throw .corrupt(path: path, reason: "no frame decodes") }
    }

    /// Moves forward until `ahead` is the first frame after `target` (or the clip ends), with
    /// `held` the last one at or before it.
    private func advance(to target: Int64) throws(VideoClipError) {
        while true {
            if aheadTime == nil {
                guard let time = try nextFrame(into: ahead) else { return }
                aheadTime = time
            }
            guard let next = aheadTime, next <= target else { return }
            av_frame_unref(held)
            av_frame_move_ref(held, ahead)
            heldTime = next
            aheadTime = nil
        }
    }

    /// A seek pays when a keyframe lies well beyond what has been decoded and at or before the
    /// target: decoding from there skips the frames in between. Without an index, only a long
    /// jump seeks.
    private func worthSeeking(from decoded: Int64, to target: Int64) -> Bool {
        let second = Int64(max(1, Double(timeBase.den) / Double(timeBase.num)))
        let index = av_index_search_timestamp(stream, target, AVSEEK_FLAG_BACKWARD)
        if index >= 0, let entry = avformat_index_get_entry(stream, index) {
            return entry.pointee.timestamp > decoded + second
        }
        return target - decoded > 10 * second
    }

    private func seek(to target: Int64) throws(VideoClipError) {
        seekCount += 1
        let status = av_seek_frame(format, stream.pointee.index, target, AVSEEK_FLAG_BACKWARD)
        if status < 0 {
            // Some demuxers refuse a backward seek near the start; the stream's start always works.
            try mapped(
                avformat_seek_file(format, stream.pointee.index, Int64.min, Int64.min, target, 0),
                "avformat_seek_file")
        }
        avcodec_flush_buffers(session.context)
        av_frame_unref(held)
        av_frame_unref(ahead)
        heldTime = nil
        aheadTime = nil
        lastDecodedTime = nil
        inputEnded = false
        decoderEnded = false
    }

    /// Decodes the next frame in presentation order into `frame` and returns its time; nil at
    /// the end of the clip. Packets the decoder refuses as damaged are skipped, as players do.
    private func nextFrame(into frame: UnsafeMutablePointer<AVFrame>) throws(VideoClipError) -> Int64? {
        while !decoderEnded {
            let status = avcodec_receive_frame(session.context, frame)
            if status == 0 {
                var time = frame.pointee.best_effort_timestamp
                if time == kiln_av_nopts_value() { time = frame.pointee.pts }
                if time == kiln_av_nopts_value() {
                    // No timestamp at all: one tick after the previous frame keeps the order.
                    time = (lastDecodedTime ?? -1) + 1
                }
                lastDecodedTime = time
                return time
            }
            if status == kiln_averror_eof() {
                decoderEnded = true
                return nil
            }
            if status != kiln_averror_eagain() { try mapped(status, "avcodec_receive_frame") }
            try feedDecoder()
        }
        return nil
    }

    private func feedDecoder() throws(VideoClipError) {
        guard !inputEnded else { return }
        while true {
            let status = av_read_frame(format, session.packet)
            if status == kiln_averror_eof() {
                inputEnded = true
                try mapped(avcodec_send_packet(session.context, nil), "avcodec_send_packet")
                return
            }
            try mapped(status, "av_read_frame")
            defer { av_packet_unref(session.packet) }
            guard session.packet.pointee.stream_index == stream.pointee.index else { continue }
            let sent = avcodec_send_packet(session.context, session.packet)
            if sent == kiln_averror(EINVAL) || sent == kiln_averror(ENOMEM) {
                try mapped(sent, "avcodec_send_packet")
            }
            return
        }
    }

    private func mapped(_ code: Int32, _ function: String) throws(VideoClipError) {
        do throws(MediaError) { try check(code, function) } catch { throw VideoClipError(error, path: path) }
    }

    // MARK: - Pictures

    private struct ScaleKey: Equatable {
        let width: Int32, height: Int32, format: Int32, colorspace: UInt32, fullRange: Bool
    }

    /// YUV (or any other layout) → straight RGBA8 in stored orientation, with its size, with one
    /// swscale context kept while the frames' layout stays the same.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> (
        rgba: [UInt8], width: Int, height: Int
    ) {
        var pixelFormat = AVPixelFormat(rawValue: frame.pointee.format)
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat),
            descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL) == 0,
            descriptor.pointee.nb_components >= 3
        else {
            // RGB and grey clips (PNG or QuickTime animation codecs): the still-image path, at
            // the clip's own size.
            return (try straightRGBA(from: frame), width, height)
        }
        // The target in stored orientation: a sideways clip is turned after converting.
        let sideways = facts.quarterTurns % 2 == 1
        let target =
            pictureSize.map { sideways ? ($0.height, $0.width) : ($0.width, $0.height) } ?? (width, height)
        var fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG
        if let plain = Self.plainYUV(pixelFormat) {
            pixelFormat = plain
            fullRange = true
        }
        var colorspace = frame.pointee.colorspace
        if colorspace == AVCOL_SPC_UNSPECIFIED {
            // As players guess: HD is BT.709, standard definition BT.601.
            colorspace = height >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M
        }
        let key = ScaleKey(
            width: frame.pointee.width, height: frame.pointee.height, format: pixelFormat.rawValue,
            colorspace: colorspace.rawValue, fullRange: fullRange)
        let context: ScaleContext
        if let scaler, scaler.key == key {
            context = scaler.context
        } else {
            // As for still images: full-resolution chroma interpolated, accurate and bit-exact
            // rounding, so the bytes are the same on every CPU; a smaller target is resampled
            // with a bicubic that swscale widens into a prefilter when shrinking.
            let filter = target == (width, height) ? SWS_BILINEAR : SWS_BICUBIC
            context = try ScaleContext(
                from: (width, height, pixelFormat), to: (target.0, target.1, AV_PIX_FMT_RGBA),
                flags: filter | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP | SWS_ACCURATE_RND | SWS_BITEXACT)
            try context.setColorspace(
                Int32(colorspace.rawValue), sourceFullRange: fullRange, destinationFullRange: true)
            scaler = (key, context)
        }
        var rgba = [UInt8](repeating: 0, count: target.0 * target.1 * 4 + scalePadding)
        rgba.withUnsafeMutableBufferPointer {
            context.scale(
                frame: frame, destination: planes($0.baseAddress), destinationStrides: strides(target.0 * 4))
        }
        rgba.removeLast(scalePadding)
        return (rgba, target.0, target.1)
    }

    private static func plainYUV(_ format: AVPixelFormat) -> AVPixelFormat? {
        switch format {
        case AV_PIX_FMT_YUVJ420P: AV_PIX_FMT_YUV420P
        case AV_PIX_FMT_YUVJ422P: AV_PIX_FMT_YUV422P
        case AV_PIX_FMT_YUVJ444P: AV_PIX_FMT_YUV444P
        default: nil
        }
    }

    /// Turns a picture clockwise by `quarterTurns` quarter turns.
    static func turned(_ rgba: [UInt8], width: Int, height: Int, quarterTurns: Int) -> DecodedImage {
        guard quarterTurns % 4 != 0 else { return DecodedImage(width: width, height: height, rgba: rgba) }
        let sideways = quarterTurns % 2 == 1
        let outWidth = sideways ? height : width, outHeight = sideways ? width : height
        var out = [UInt8](repeating: 0, count: rgba.count)
        rgba.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                let from = source.bindMemory(to: UInt32.self), to = target.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    for x in 0..<width {
                        let (tx, ty) =
                            switch quarterTurns % 4 {
                            case 1: (height - 1 - y, x)
                            case 2: (width - 1 - x, height - 1 - y)
                            default: (y, width - 1 - x)
                            }
                        to[ty * outWidth + tx] = from[y * width + x]
                    }
                }
            }
        }
        return DecodedImage(width: outWidth, height: outHeight, rgba: out)
    }
}

/// A clip's container opened with its best video stream; closed on every path unless `take`n.
private final class ClipInput {
    let path: String
    private var context: UnsafeMutablePointer<AVFormatContext>?
    let stream: UnsafeMutablePointer<AVStream>

    init(path: String) throws(VideoClipError) {
        self.path = path
        // The "file:" prefix and the protocol whitelist keep a name such as "concat:a|b" an
        // ordinary file name, as for still images.
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        do throws(MediaError) {
            try check(av_dict_set(&options, "protocol_whitelist", "file", 0), "av_dict_set")
            try check(avformat_open_input(&context, "file:" + path, nil, &options), "avformat_open_input")
            guard let context else { throw MediaError.failure("avformat_open_input", "returned NULL") }
            try check(avformat_find_stream_info(context, nil), "avformat_find_stream_info")
        } catch {
            avformat_close_input(&context)
            throw VideoClipError(error, path: path)
        }
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        // A cover picture attached to an audio file is a video stream of one image, not a clip.
        guard index >= 0, let found = context?.pointee.streams[Int(index)],
            found.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        else {
            avformat_close_input(&context)
            throw .noVideoStream(path: path)
        }
        stream = found
    }

    deinit { avformat_close_input(&context) }

    /// Hands the context over to a longer-lived owner.
    func take() -> UnsafeMutablePointer<AVFormatContext>? {
        defer { context = nil }
        return context
    }

    func facts() throws(VideoClipError) -> VideoClipFacts {
        let parameters = stream.pointee.codecpar.pointee
        let codecName = avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown"
        guard avcodec_find_decoder(parameters.codec_id) != nil else {
            throw .unsupportedCodec(path: path, codec: codecName)
        }
        guard parameters.width > 0, parameters.height > 0 else {
            throw .corrupt(path: path, reason: "the video stream has no frame size")
        }
        try checkIndexWithinFile()
        let turns = quarterTurns()
        let width = Int(parameters.width), height = Int(parameters.height)
        var duration: Double?
        if stream.pointee.duration != kiln_av_nopts_value(), stream.pointee.duration > 0 {
            duration = Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
        } else if let context, context.pointee.duration != kiln_av_nopts_value(), context.pointee.duration > 0
        {
            duration = Double(context.pointee.duration) / Double(AV_TIME_BASE)
        }
        return VideoClipFacts(
            width: turns % 2 == 1 ? height : width, height: turns % 2 == 1 ? width : height,
            quarterTurns: turns, duration: duration, codec: codecName)
    }

    /// A container with an index up front (MP4, MOV) says where every frame's bytes are: a file
    /// cut short has frames indexed past its end, which would otherwise surface as a clip that
    /// silently stops partway.
    private func checkIndexWithinFile() throws(VideoClipError) {
        guard let io = context?.pointee.pb else { return }
        let fileBytes = avio_size(io)
        guard fileBytes > 0 else { return }
        var indexedEnd: Int64 = 0
        for index in 0..<avformat_index_get_entries_count(stream) {
            guard let entry = avformat_index_get_entry(stream, index) else { continue }
            indexedEnd = max(indexedEnd, entry.pointee.pos + Int64(entry.pointee.size))
        }
        if indexedEnd > fileBytes {
            throw .truncated(path: path, indexedBytes: indexedEnd, fileBytes: fileBytes)
        }
    }

    /// The display matrix's rotation as clockwise quarter turns, as FFmpeg's own player rounds
    /// it; a matrix that is not a right angle (or absent) leaves the picture as stored.
    private func quarterTurns() -> Int {
        var size = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else {
            return 0
        }
        let counterclockwise = data.withMemoryRebound(to: Int32.self, capacity: 9) {
            av_display_rotation_get($0)
        }
        guard counterclockwise.isFinite else { return 0 }
        var clockwise = -counterclockwise
        clockwise -= 360 * (clockwise / 360).rounded(.down)
        let turns = (clockwise / 90).rounded()
        guard abs(clockwise - turns * 90) < 1 else { return 0 }
        return Int(turns) % 4
    }
}
