import CFFmpeg

public enum MediaLibraries {
    /// e.g. "libavcodec 59.37.100, libavformat 59.27.100, libavutil 57.28.100, libswscale 6.7.100"
    public static var versionSummary: String {
        [
            ("libavcodec", avcodec_version()), ("libavformat", avformat_version()),
            ("libavutil", avutil_version()), ("libswscale", swscale_version()),
        ].map { "\($0.0) \(versionString($0.1))" }.joined(separator: ", ")
    }

    /// FFmpeg and libx264 log to stderr through av_log; callers choose how much of that they want.
    public static func setLogLevel(_ level: MediaLogLevel) {
        av_log_set_level(level.rawValue)
    }

    private static func versionString(_ packed: UInt32) -> String {
        "\(packed >> 16).\((packed >> 8) & 0xFF).\(packed & 0xFF)"
    }
}
