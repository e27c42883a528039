/// av_log levels (AV_LOG_QUIET … AV_LOG_INFO).
public enum MediaLogLevel: Int32, Sendable {
    case quiet = -8
    case error = 16
    case warning = 24
    case info = 32
}
