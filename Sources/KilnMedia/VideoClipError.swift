import CFFmpeg
import Foundation

/// Why a video layer's clip cannot be used. `description` is one clear line naming the file.
public enum VideoClipError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The file cannot be opened or read (it vanished, permissions, I/O).
    case unreadable(path: String, reason: String)
    /// The file opens as media but holds no video stream (an audio file, a subtitle file).
    case noVideoStream(path: String)
    /// The video stream's codec has no decoder in this FFmpeg build.
    case unsupportedCodec(path: String, codec: String)
    /// The content is not a media file FFmpeg knows, or its data does not decode.
    case corrupt(path: String, reason: String)
    /// The container's index points past the end of the file: it was cut short.
    case truncated(path: String, indexedBytes: Int64, fileBytes: Int64)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read video \(path): \(reason)"
        case .noVideoStream(let path):
            "\(path) holds no video stream"
        case .unsupportedCodec(let path, let codec):
            "video \(path) uses the codec \(codec), which this build cannot decode"
        case .corrupt(let path, let reason):
            "video \(path) is corrupt or not a video file: \(reason)"
        case .truncated(let path, let indexedBytes, let fileBytes):
            "video \(path) is truncated: its index refers to \(indexedBytes) bytes but the file has \(fileBytes)"
        }
    }
}

extension VideoClipError {
    init(_ error: MediaError, path: String) {
        self =
            error.isFileReadFailure
            ? .unreadable(path: path, reason: error.message)
            : .corrupt(path: path, reason: "\(error.message) (\(error.function))")
    }
}
