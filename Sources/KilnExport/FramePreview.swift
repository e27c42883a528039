import Foundation
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

/// Renders one frame to a still image: exactly the pixels the video gets before YUV conversion
/// (PNG and WebP keep them exactly; JPEG within its own near-lossless coding).
public struct FramePreview: Sendable {
    public let job: Job
    public let threads: Int

    public init(job: Job, threads: Int? = nil) {
        self.job = job
        self.threads = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The dithered 8-bit frame for frame index `frame`.
    public func render(frame: Int) throws(ExportError) -> RGBA8Frame {
        let o = job.output
        let renderer = SceneRenderer(job: job, canvas: Canvas(output: o), threads: threads)
        let image = RGBA8Frame(width: o.width, height: o.height)
        renderer.render(at: o.timelineTime(ofFrame: frame), yuv: nil, rgba: image)
        if let refusal = renderer.refusal { throw .overLimit(file: job.file, refusal) }
        return image
    }

    /// The frame shown at `seconds`: the last frame that starts at or before it; nil when `seconds`
    /// is at or past the job's end (its duration, frameCount / fps), where no frame is shown.
    public func frameIndex(atSeconds seconds: Double) -> Int? {
        guard seconds < job.output.durationSeconds else { return nil }
        let rate = job.output.frameRate
        // The tolerance keeps a frame's own start on that frame (4.1 s × 30 fps multiplies out to
        // 122.99999999999999); clamped because just below the end it can reach one past the last.
        let index = Int((seconds * Double(rate.numerator) / Double(rate.denominator) + 1e-9).rounded(.down))
        return min(max(index, 0), job.output.frameCount - 1)
    }

    /// Writes frame `frame` to `url` as `format`, through a temporary file renamed into place, so
    /// `url` is either the whole image or untouched.
    public func writeStill(frame: Int, as format: ImageFormat, to url: URL) throws(ExportError) {
        // The file is opened first: an output that cannot be written fails before the render.
        let file = try AtomicOutputFile(finalURL: url)
        try StillImageFile.write(try render(frame: frame), as: format, to: file)
    }
}
