import CFFmpeg
import Foundation

/// An image file format: recognised from a file's first bytes when reading (`ImageFile`), chosen by
/// the name's extension when writing a still (`init(fileExtension:)`, `StillImageEncoder`).
public enum ImageFormat: String, Sendable {
    case png, jpeg, webp

    /// The pipe demuxer reads exactly one file as one stream; image2 would treat `%d` in a name
    /// as a sequence pattern.
    var demuxer: String { "\(rawValue)_pipe" }

    var codec: AVCodecID {
        switch self {
        case .png: AV_CODEC_ID_PNG
        case .jpeg: AV_CODEC_ID_MJPEG
        case .webp: AV_CODEC_ID_WEBP
        }
    }
}
