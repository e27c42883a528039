import Foundation
import KilnModel

/// A media file that is a FIFO, device or socket: FFmpeg would open it and block or read
/// forever, so it is refused by `stat` first, at every open and not only when the job loads.
struct NonRegularInput: Error, CustomStringConvertible {
    let path: String
    let kind: String
    var description: String { "\(path) is \(kind), not a regular file" }

    static func refuse(_ url: URL) throws(NonRegularInput) {
        if let kind = FileKind.nonRegular(atPath: url.path, followingLinks: true) {
            throw NonRegularInput(path: url.path, kind: kind)
        }
    }
}
