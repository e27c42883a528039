import CFFmpeg
import Foundation

/// Why an image file could not be used. `description` is one clear line naming the file.
public enum ImageFileError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The file cannot be opened or read: missing ("no such file"), a directory, permissions, I/O.
    case unreadable(path: String, reason: String)
    /// The content (never the extension) is not PNG, JPEG or WebP, or is an animated WebP.
    case unsupportedFormat(path: String)
    /// Wider or taller than `limit` (`ImageFile.maxDimension`), or within it on both sides but with
    /// more pixels than FFmpeg allocates for one frame (about 16255x16255).
    case tooLarge(path: String, width: Int, height: Int, limit: Int)
    /// Truncated or undecodable data: a header problem, or the av_strerror text of the FFmpeg call
    /// that failed.
    case corrupt(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read image \(path): \(reason)"
        case .unsupportedFormat(let path):
            "\(path) is not a PNG, JPEG or still WebP image"
        case .tooLarge(let path, let width, let height, let limit) where width > limit || height > limit:
            "image \(path) is \(width)x\(height) pixels, over the limit of \(limit) pixels on a side"
        case .tooLarge(let path, let width, let height, _):
            "image \(path) is \(width)x\(height) pixels, more than FFmpeg decodes in one frame"
        case .corrupt(let path, let reason):
            "image \(path) is corrupt: \(reason)"
        }
    }
}

extension ImageFileError {
    init(_ error: MediaError, path: String) {
        self =
            error.isFileReadFailure
            ? .unreadable(path: path, reason: error.message)
            : .corrupt(path: path, reason: "\(error.message) (\(error.function))")
    }
}
