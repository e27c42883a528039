import Foundation
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene
import Synchronization

/// Video layers' clips, opened through the media module (libavformat + libavcodec).
public struct MediaVideoDecoder: VideoDecoding {
    public init() {}

    public func videoFacts(at url: URL) throws -> VideoFacts {
        try NonRegularInput.refuse(url)
        let facts = try VideoClipReader.probe(path: url.path)
        return VideoFacts(size: SIMD2(facts.width, facts.height), duration: facts.duration)
    }

    public func openVideo(at url: URL, maxPixels: Int, scaledTo size: SIMD2<Int>?) throws
        -> any VideoFrameSource
    {
        try NonRegularInput.refuse(url)
        return try MediaVideoSource(path: url.path, maxPixels: maxPixels, scaledTo: size)
    }
}

/// One clip's reader behind a lock, with the last few frames it converted: consecutive output
/// frames often show the same clip frame (a 25 fps clip on a 30 fps timeline, slow motion), and
/// several renderers of one job may ask for nearby times. Only a handful of frames are ever held,
/// however long the clip.
final class MediaVideoSource: VideoFrameSource {
    private let state: Mutex<ReaderState>

    init(path: String, maxPixels: Int, scaledTo size: SIMD2<Int>?) throws(VideoClipError) {
        let reader = try VideoClipReader(
            path: path, maxPixels: maxPixels, scaledTo: size.map { (width: $0.x, height: $0.y) })
        state = Mutex(ReaderState(reader: reader))
        // The first frame converts now, so a clip whose pictures do not convert fails at load, and
        // a frame that fails to decode later has a picture to fall back on.
        try state.withLock { state throws(VideoClipError) in
            _ = try state.frame(at: PlaybackTiming.ClipTime(seconds: 0, excluding: false))
        }
    }

    func frame(at time: PlaybackTiming.ClipTime) -> RasterImage {
        state.withLock { state in
            do throws(VideoClipError) {
                return try state.frame(at: time)
            } catch {
                // The file became unreadable or stopped decoding after it loaded: the renderer
                // sees `failure` and refuses the frame, so no video is written with a frozen clip.
                if state.failure == nil { state.failure = error }
                return state.recent.last?.image ?? state.first
            }
        }
    }

    var failure: String? { state.withLock { $0.failure?.description } }

    final class ReaderState {
        static let kept = 3
        let reader: VideoClipReader
        var recent: [(time: Int64, image: RasterImage)] = []
        var failure: VideoClipError?
        private var firstImage: RasterImage?

        init(reader: VideoClipReader) { self.reader = reader }

        /// Set once the first `frame` has returned.
        var first: RasterImage { firstImage! }

        func frame(at time: PlaybackTiming.ClipTime) throws(VideoClipError) -> RasterImage {
            let frameTime = try reader.positionFrame(atSeconds: time.seconds, excluding: time.excluding)
            if let index = recent.firstIndex(where: { $0.time == frameTime }) {
                return recent[index].image
            }
            let decoded = try reader.pixels()
            let image = RasterImage(width: decoded.width, height: decoded.height, straightRGBA: decoded.rgba)
            if recent.count == Self.kept { recent.removeFirst() }
            recent.append((frameTime, image))
            if firstImage == nil { firstImage = image }
            return image
        }
    }
}
