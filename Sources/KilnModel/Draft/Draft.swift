import Foundation

/// A smaller and/or shorter render of a job, made without editing it (`kiln render --scale 0.5
/// --range 2-5`): the same layout in fewer pixels (`DraftSize`), and part of the job's frames
/// with the timing they have in the whole (`DraftSpan`).
///
/// A draft changes only the job's `OutputSettings`: `width` and `height` become the draft's
/// pixels while `layoutWidth` and `layoutHeight` keep the job's own size, which the renderer
/// maps into the frame (`Canvas.frameFromLayout`); `startFrame` and `frameCount` pick the frames.
public struct Draft: Sendable, Hashable {
    public var size: DraftSize?
    public var span: DraftSpan?

    public init(size: DraftSize? = nil, span: DraftSpan? = nil) {
        self.size = size
        self.span = span
    }

    /// Where a draft goes without `-o`: beside the job's output, `NAME.draft.EXT`, so a draft
    /// never replaces the full render.
    public static func outputPath(besides path: URL) -> URL {
        let ext = path.pathExtension
        let name = path.deletingPathExtension().lastPathComponent + ".draft" + (ext.isEmpty ? "" : ".\(ext)")
        return path.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// `output` as this draft renders it.
    public func applied(to output: OutputSettings) throws(DraftError) -> OutputSettings {
        var drafted = output
        if let size {
            (drafted.width, drafted.height) = try size.pixels(
                layoutWidth: output.layoutWidth, layoutHeight: output.layoutHeight)
        }
        if let span {
            let frames = try span.frames(of: output)
            drafted.startFrame = output.startFrame + frames.lowerBound
            drafted.frameCount = frames.count
        }
        return drafted
    }
}

extension Job {
    /// The same job rendered as `draft`: its layers, audio and limits, with the draft's output.
    public func drafted(_ draft: Draft) throws(DraftError) -> Job {
        var job = Job(
            file: file, output: try draft.applied(to: output), layers: layers, camera: camera, audio: audio,
            limits: limits)
        job.inputFiles = inputFiles
        job.frameInputs = frameInputs
        return job
    }
}
