import Foundation
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

/// Renders one frame to a PNG: exactly the pixels the video gets before YUV conversion.
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
        let renderer = SceneRenderer(
            layers: job.layers, canvas: Canvas(width: o.width, height: o.height), threads: threads,
            limits: job.limits)
        let image = RGBA8Frame(width: o.width, height: o.height)
        renderer.render(at: o.time(ofFrame: frame), yuv: nil, rgba: image)
        if let refusal = renderer.refusal { throw .overLimit(file: job.file, refusal) }
        return image
    }

    /// The frame shown at `seconds`: the last frame that starts at or before it.
    public func frameIndex(atSeconds seconds: Double) -> Int {
        let rate = job.output.frameRate
        let index = Int((seconds * Double(rate.numerator) / Double(rate.denominator) + 1e-9).rounded(.down))
        return min(max(index, 0), job.output.frameCount - 1)
    }

    public func writePNG(frame: Int, to url: URL) throws(ExportError) {
        let file = try AtomicOutputFile(finalURL: url)
        let image = try render(frame: frame)
        let bytes: [UInt8]
        do {
            bytes = try PNGCodec.encode(
                rgba: image.bytes, width: image.width, height: image.height, stride: image.stride)
        } catch {
            throw .media(error)
        }
        try file.write(bytes)
        try file.commit()
    }
}
