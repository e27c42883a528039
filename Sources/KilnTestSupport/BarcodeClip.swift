import CFFmpeg
import KilnMedia

/// Test clips whose frames show their own number as a barcode: `bits` blocks across the frame,
/// white for a one and black for a zero, most significant first, so a decoded frame says which
/// clip frame it shows.
public enum BarcodeClip {
    public static let width = 64
    public static let height = 48
    public static let bits = 10
    /// Each block's width in pixels; the barcode starts `margin` pixels in.
    static let block = 6
    static let margin = 2

    /// The centre of block `bit` (0 = most significant) in the clip's own pixels.
    public static func centre(ofBit bit: Int) -> (x: Int, y: Int) {
        (margin + bit * block + block / 2, height / 2)
    }

    /// Writes `frames` frames at `fps` through Kiln's own `VideoFileWriter` (H.264, keyframes every
    /// `gop` frames so seeking has keyframes to land on).
    /// With `audio`, the clip has a sound track (AAC) from that source, as long as the video.
    public static func writeConstantRate(
        path: String, frames: Int, fps: Int, gop: Int = 10, audio: (any AudioSampleSource)? = nil
    ) throws(MediaError) {
        let writer = try VideoFileWriter(
            path: path,
            settings: VideoSettings(
                width: width, height: height, frameRateNumerator: fps, frameRateDenominator: 1, crf: 12,
                preset: "veryfast", gop: gop, encoderThreads: 1),
            audio: audio)
        for number in 0..<frames {
            let planes = yuv(number)
            try writer.append(
                y: planes.y, yStride: width, u: planes.chroma, v: planes.chroma, uvStride: width / 2)
        }
        try writer.finish()
    }

    /// Writes frames with the given increasing presentation times in milliseconds (any spacing: a
    /// variable frame rate; the last frame lasts 40 ms) and, with `displayMatrixDegrees`, a display
    /// matrix made by `av_display_rotation_set` with that angle (ffprobe reports it as the
    /// rotation; -90 is a phone's portrait clip, which FFmpeg's player turns a quarter clockwise).
    /// libavcodec and libavformat are driven directly because `VideoFileWriter` only writes
    /// constant-rate, upright video.
    public static func write(path: String, millisecondTimes: [Int64], displayMatrixDegrees: Double? = nil)
        throws(MediaError)
    {
        let file = try TimedClipFile(path: path, displayMatrixDegrees: displayMatrixDegrees)
        for (number, time) in millisecondTimes.enumerated() {
            let next = number + 1 < millisecondTimes.count ? millisecondTimes[number + 1] : time + 40
            try file.append(yuv(number), time: time, duration: next - time)
        }
        try file.finish()
    }

    /// Reads the number from luma samples: `luma(x, y)` at each block's centre, mapped by `place`
    /// from clip pixels to the picture read. nil when a block is neither clearly dark nor light.
    public static func number(
        luma: (Int, Int) -> UInt8, place: ((Int, Int)) -> (Int, Int) = { $0 }
    ) -> Int? {
        var number = 0
        for bit in 0..<bits {
            let (x, y) = place(centre(ofBit: bit))
            let value = luma(x, y)
            guard value < 70 || value > 180 else { return nil }
            number = number << 1 | (value > 180 ? 1 : 0)
        }
        return number
    }

    /// Limited-range luma: 235 white, 16 black; neutral chroma.
    static func yuv(_ number: Int) -> (y: [UInt8], chroma: [UInt8]) {
        var y = [UInt8](repeating: 16, count: width * height)
        for bit in 0..<bits where number >> (bits - 1 - bit) & 1 == 1 {
            let left = margin + bit * block
            for row in 4..<(height - 4) {
                for column in left..<(left + block) { y[row * width + column] = 235 }
            }
        }
        return (y, [UInt8](repeating: 128, count: width * height / 4))
    }
}

/// One H.264 MP4 written with presentation times in milliseconds.
private final class TimedClipFile {
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let stream: UnsafeMutablePointer<AVStream>

    /// Each frame's duration by its presentation time: the encoder leaves packets without one, and
    /// the muxer would then end the track at the last decoding time instead of the last frame's end.
    private var durations: [Int64: Int64] = [:]

    init(path: String, displayMatrixDegrees: Double?) throws(MediaError) {
        try check(avformat_alloc_output_context2(&format, nil, "mp4", path), "avformat_alloc_output_context2")
        let format = try require(format, "avformat_alloc_output_context2")
        let encoder = try require(avcodec_find_encoder_by_name("libx264"), "avcodec_find_encoder_by_name")
        stream = try require(avformat_new_stream(format, nil), "avformat_new_stream")
        codec = avcodec_alloc_context3(encoder)
        let codec = try require(codec, "avcodec_alloc_context3")
        codec.pointee.width = Int32(BarcodeClip.width)
        codec.pointee.height = Int32(BarcodeClip.height)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codec.pointee.time_base = AVRational(num: 1, den: 1000)
        codec.pointee.gop_size = 8
        // Without B-frames decoding times equal presentation times, so the MP4 muxer, which ends
        // the track at the last decoding time plus its duration, ends it after the last frame (as
        // phone cameras' variable-rate files do); the constant-rate clips have B-frames.
        codec.pointee.max_b_frames = 0
        codec.pointee.thread_count = 1
        if format.pointee.oformat.pointee.flags & kiln_avfmt_globalheader() != 0 {
            codec.pointee.flags |= kiln_codec_flag_global_header()
        }
        try check(av_opt_set(codec.pointee.priv_data, "crf", "12", 0), "av_opt_set(crf)")
        try check(av_opt_set(codec.pointee.priv_data, "preset", "veryfast", 0), "av_opt_set(preset)")
        try check(avcodec_open2(codec, encoder, nil), "avcodec_open2")
        try check(
            avcodec_parameters_from_context(stream.pointee.codecpar, codec), "avcodec_parameters_from_context"
        )
        stream.pointee.time_base = codec.pointee.time_base
        if let displayMatrixDegrees {
            let bytes = 9 * MemoryLayout<Int32>.size
            let matrix = try require(av_malloc(bytes), "av_malloc").bindMemory(to: Int32.self, capacity: 9)
            av_display_rotation_set(matrix, displayMatrixDegrees)
            let added = av_stream_add_side_data(
                stream, AV_PKT_DATA_DISPLAYMATRIX,
                UnsafeMutableRawPointer(matrix).assumingMemoryBound(to: UInt8.self),
                bytes)
            if added < 0 { av_free(matrix) }
            try check(added, "av_stream_add_side_data")
        }
        frame = try require(av_frame_alloc(), "av_frame_alloc")
        frame!.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame!.pointee.width = codec.pointee.width
        frame!.pointee.height = codec.pointee.height
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
        packet = try require(av_packet_alloc(), "av_packet_alloc")
        try check(avio_open(&format.pointee.pb, path, kiln_avio_flag_write()), "avio_open")
        try check(avformat_write_header(format, nil), "avformat_write_header")
    }

    deinit {
        if let format {
            avio_closep(&format.pointee.pb)
            avformat_free_context(format)
        }
        avcodec_free_context(&codec)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    func append(_ planes: (y: [UInt8], chroma: [UInt8]), time: Int64, duration: Int64) throws(MediaError) {
        guard let frame else { return }
        durations[time] = duration
        try check(av_frame_make_writable(frame), "av_frame_make_writable")
        let width = Int32(BarcodeClip.width), height = Int32(BarcodeClip.height)
        av_image_copy_plane(frame.pointee.data.0, frame.pointee.linesize.0, planes.y, width, width, height)
        av_image_copy_plane(
            frame.pointee.data.1, frame.pointee.linesize.1, planes.chroma, width / 2, width / 2, height / 2)
        av_image_copy_plane(
            frame.pointee.data.2, frame.pointee.linesize.2, planes.chroma, width / 2, width / 2, height / 2)
        frame.pointee.pts = time
        try check(avcodec_send_frame(codec, frame), "avcodec_send_frame")
        try writePackets()
    }

    func finish() throws(MediaError) {
        try check(avcodec_send_frame(codec, nil), "avcodec_send_frame")
        try writePackets()
        try check(av_write_trailer(format), "av_write_trailer")
    }

    private func writePackets() throws(MediaError) {
        guard let codec, let packet else { return }
        while true {
            let status = avcodec_receive_packet(codec, packet)
            if status == kiln_averror_eagain() || status == kiln_averror_eof() { return }
            try check(status, "avcodec_receive_packet")
            packet.pointee.duration = durations[packet.pointee.pts] ?? 0
            av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            let written = av_interleaved_write_frame(format, packet)
            av_packet_unref(packet)
            try check(written, "av_interleaved_write_frame")
        }
    }
}
