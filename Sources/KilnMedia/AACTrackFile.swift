import CFFmpeg

/// A video's whole soundtrack encoded ahead of assembly into an audio-only MP4 (.m4a), so that a
/// segmented export encodes it while the segments render (on another thread, or by another
/// worker) and the assembly only copies packets. Encoded by the same `AudioTrackEncoder` as a
/// monolithic file, so the track is the same: 48 kHz stereo AAC, exactly as long as the video.
public enum AACTrackFile {
    /// Encodes `source` for a video of `videoFrames` frames at the given rate to `path`; returns
    /// the samples encoded. `shouldStop` is asked once per second of audio; true abandons the file
    /// (the caller deletes it).
    @discardableResult
    public static func write(
        source: any AudioSampleSource, frameRateNumerator: Int, frameRateDenominator: Int, videoFrames: Int,
        to path: String, shouldStop: () -> Bool = { false }
    ) throws(MediaError) -> Int {
        var formatContext: UnsafeMutablePointer<AVFormatContext>?
        try check(
            avformat_alloc_output_context2(&formatContext, nil, "mp4", path), "avformat_alloc_output_context2"
        )
        defer { Muxer.close(&formatContext) }
        let context = try require(formatContext, "avformat_alloc_output_context2")
        let encoder = try AudioTrackEncoder(
            source: source, formatContext: context,
            globalHeader: context.pointee.oformat.pointee.flags & kiln_avfmt_globalheader() != 0,
            frameRateNumerator: frameRateNumerator, frameRateDenominator: frameRateDenominator)
        defer { encoder.release() }
        try check(avio_open(&context.pointee.pb, path, kiln_avio_flag_write()), "avio_open")
        try check(avformat_write_header(context, nil), "avformat_write_header")
        let write = { (packet: UnsafeMutablePointer<AVPacket>) throws(MediaError) in
            try Muxer.writeInterleaved(packet, to: context)
        }
        // A second of video at a time keeps the source's reads and the muxer's buffers small.
        let step = max(1, frameRateNumerator / max(1, frameRateDenominator))
        for frame in stride(from: step, to: videoFrames, by: step) {
            if shouldStop() { throw MediaError.failure("AACTrackFile.write", "stopped") }
            try encoder.encode(throughVideoFrame: frame, write: write)
        }
        try encoder.finish(videoFrames: videoFrames, write: write)
        try check(av_write_trailer(context), "av_write_trailer")
        try check(avio_closep(&context.pointee.pb), "avio_closep")
        return encoder.samplesEncoded
    }
}
