import KilnMedia
import KilnRaster

/// One frame travelling from the renderer to the encoder thread: always its YUV 4:2:0 over
/// black (what the video codecs take, and what frame hashes digest), and for the formats that
/// keep transparency also its straight-alpha RGBA.
final class RenderedFrame: @unchecked Sendable {
    let yuv: YUV420Frame
    let rgba: RGBA8Frame?

    init(width: Int, height: Int, keepsAlpha: Bool) {
        yuv = YUV420Frame(width: width, height: height)
        rgba = keepsAlpha ? RGBA8Frame(width: width, height: height) : nil
    }
}

extension RenderedFrame {
    /// Takes `other`'s pictures (a still frame shown again).
    func copyPictures(of other: RenderedFrame) {
        let yuv = self.yuv, source = other.yuv
        precondition(yuv.width == source.width && yuv.height == source.height)
        yuv.y.update(from: source.y, count: yuv.width * yuv.height)
        yuv.u.update(from: source.u, count: yuv.chromaWidth * yuv.chromaHeight)
        yuv.v.update(from: source.v, count: yuv.chromaWidth * yuv.chromaHeight)
        if let rgba, let sourceRGBA = other.rgba {
            rgba.bytes.update(from: sourceRGBA.bytes, count: rgba.stride * rgba.height)
        }
    }
}

/// Where rendered frames go, on the encoder thread: a video file or a folder of PNGs.
protocol FrameSink: AnyObject, Sendable {
    /// Called on the writing thread after each frame is written, with the count so far.
    var onFrameWritten: ((Int) -> Void)? { get set }
    func append(_ frame: RenderedFrame) throws(MediaError)
    /// Flushes and closes the output (the caller then commits it), with the values of its late
    /// container tags (`ContainerTags.late`).
    func complete(lateTags: [String: String]) throws(MediaError)
    /// Closes everything without completing it; safe to call twice or after `finish`.
    func abort()
}

extension VideoFileWriter: FrameSink {
    func append(_ frame: RenderedFrame) throws(MediaError) {
        switch settings.codec.input {
        case .yuv420:
            let yuv = frame.yuv
            try append(y: yuv.y, yStride: yuv.yStride, u: yuv.u, v: yuv.v, uvStride: yuv.uvStride)
        case .rgba:
            guard let rgba = frame.rgba else {
                throw MediaError(
                    function: "VideoFileWriter.append", code: -1, message: "no RGBA frame rendered")
            }
            try append(rgba: rgba.bytes, stride: rgba.stride)
        }
    }

    func complete(lateTags: [String: String]) throws(MediaError) {
        lateTagValues.merge(lateTags) { _, new in new }
        try finish()
    }
}
