import Foundation
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene
import Synchronization

/// Renders every frame of a job and encodes it in the job's `OutputFormat` (a video file, or a
/// folder of PNGs), atomically.
///
/// The renderer (all cores, band-parallel) fills frame n+1 while a dedicated encoder thread feeds
/// frame n to the encoder; a small fixed pool of frames between them bounds memory whatever the
/// video length.
public struct VideoExport: Sendable {
    public let job: Job
    public let output: URL
    public let threads: Int
    public let poolSize = 3
    /// When set, every rendered frame's digest is appended here (determinism checks).
    public var frameHashes: FrameHashLog?
    /// A frame whose digest (`FrameDigester`) equals the frame before it takes that frame's
    /// pictures instead of being drawn again: a title held for 3 s costs one frame's render.
    /// Off only to compare against (the bytes are the same).
    public var reusesStillFrames = true

    public init(job: Job, output: URL? = nil, threads: Int? = nil, frameHashes: FrameHashLog? = nil) {
        self.job = job
        // Resolved once: the folder's links and `..` are the kernel's, the final name is not followed.
        self.output = OutputLocation(output ?? job.output.path).url
        self.threads = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        self.frameHashes = frameHashes
    }

    public var videoSettings: VideoSettings {
        let o = job.output
        var settings = VideoSettings(
            width: o.width, height: o.height, frameRateNumerator: o.frameRate.numerator,
            frameRateDenominator: o.frameRate.denominator, crf: o.crf, preset: o.preset, gop: o.gop,
            codec: Self.codec(for: o.format) ?? .h264)
        settings.maxBytes = o.maxBytes
        settings.expectedFrames = o.frameCount
        return settings
    }

    /// The video codec that writes `format`; nil for a PNG sequence.
    public static func codec(for format: OutputFormat) -> VideoCodec? {
        switch format {
        case .h264: .h264
        case .hevc: .hevc
        case .vp9: .vp9
        case .prores4444: .prores4444
        case .gif: .gif
        case .webp: .webp
        case .pngSequence: nil
        }
    }

    /// Why this FFmpeg cannot write the job's format, or nil: checked before any frame is drawn.
    public var missingLibrary: String? {
        Self.codec(for: job.output.format).flatMap(\.missingLibrary)
            ?? (job.output.format == .pngSequence ? StillImageEncoder.missingEncoder(for: .png) : nil)
    }

    /// The job's soundtrack as the writer's sample source, from the job time of the video's first
    /// frame (a draft of part of the job hears that part).
    static func soundtrack(_ soundtrack: Soundtrack, output: OutputSettings) throws(MediaError)
        -> any AudioSampleSource
    {
        try SoundtrackMix.source(soundtrack, output: output)
    }

    /// `beforeCommit` runs once the file is complete, just before it is renamed into place; false
    /// abandons it (a queue worker checks that it still holds its lease).
    public func run(
        cancellation: CancellationFlag = CancellationFlag(),
        progress: (@Sendable (ExportProgress) -> Void)? = nil,
        beforeCommit: (() -> Bool)? = nil
    ) throws(ExportError) -> ExportSummary {
        let start = Date()
        if let missing = missingLibrary {
            throw .media(MediaError(function: "VideoExport", code: -1, message: missing))
        }
        let destination = try Destination(output: output, folder: job.output.format == .pngSequence)
        defer { destination.discard() }
        let writer: any FrameSink
        do {
            if job.output.format == .pngSequence {
                writer = PNGSequenceWriter(folder: try destination.temporaryFolder())
            } else {
                writer = try VideoFileWriter(
                    path: destination.writablePath, settings: videoSettings,
                    audio: try job.audio.map { track throws(MediaError) in
                        try Self.soundtrack(track, output: job.output)
                    }, tags: tags)
            }
        } catch {
            throw .media(error)
        }
        let o = job.output
        let stillsReused = Mutex(0)
        try encode(
            frames: 0..<o.frameCount, renderer: makeRenderer(), writer: writer, cancellation: cancellation
        ) { done in
            stillsReused.withLock { $0 = done.stillsReused }
            // The end is reported once the file is committed.
            if done.written < o.frameCount {
                progress?(
                    ExportProgress(
                        done, totalFrames: o.frameCount, elapsedSeconds: Date().timeIntervalSince(start),
                        videoFrameRate: o.frameRate.doubleValue))
            }
        }
        if let signal = cancellation.cancelledBySignal { throw .cancelled(signal: signal) }
        if let beforeCommit, !beforeCommit() { throw .cancelled(signal: CancellationFlag.leaseLost) }
        try destination.commit()
        let elapsed = Date().timeIntervalSince(start)
        progress?(
            ExportProgress(
                frame: o.frameCount, totalFrames: o.frameCount, elapsedSeconds: elapsed,
                videoFrameRate: o.frameRate.doubleValue))
        var summary = ExportSummary(output: output, frames: o.frameCount, elapsedSeconds: elapsed)
        summary.stillFramesReused = stillsReused.withLock { $0 }
        return summary
    }

    /// What the file says of how it was made (`ContainerTags`).
    public var tags: ContainerTags {
        FramesDigest.tags(jobFile: job.file, frames: job.output.frameCount)
    }

    func makeRenderer() -> SceneRenderer {
        SceneRenderer(job: job, canvas: Canvas(output: job.output), threads: threads)
    }

    /// Renders `frames` in order into `writer` and finishes it: the renderer fills frame n+1
    /// while the encoder thread encodes frame n. `progress` gets the frames of the range rendered
    /// and written so far, after each change of either (from this thread and the encoder's, one
    /// call at a time). On any failure or cancellation the writer is aborted. Returns the frames'
    /// digest, which is also the writer's `kiln_frames_digest`.
    @discardableResult
    func encode(
        frames range: Range<Int>, renderer: SceneRenderer, writer: any FrameSink,
        cancellation: CancellationFlag, progress: @escaping (FramesDone) -> Void
    ) throws(ExportError) -> FramesDigest {
        let done = Mutex(FramesDone())
        func count(_ change: (inout FramesDone) -> Void) {
            // Reported under the lock, so the steps arrive in order whichever thread made them.
            done.withLock { d in
                change(&d)
                progress(d)
            }
        }
        writer.onFrameWritten = { written in count { $0.written = written } }
        defer { writer.onFrameWritten = nil }
        let o = job.output
        let encoder = EncoderThread(
            writer: writer,
            frames: (0..<poolSize).map { _ in
                RenderedFrame(width: o.width, height: o.height, keepsAlpha: o.format.keepsAlpha)
            })
        encoder.start()
        var failure: ExportError?
        var digest = FramesDigest()
        var stills = StillFrames(job: job, enabled: reusesStillFrames, range: range)
        for n in range {
            if let signal = cancellation.cancelledBySignal {
                failure = .cancelled(signal: signal)
                break
            }
            guard let frame = encoder.takeFreeFrame() else { break }  // the encoder failed
            if !stills.reuse(frame: n, into: frame) {
                // Frame n+1 is prepared during frame n's bands, unless it will not be drawn.
                let next =
                    n + 1 < range.upperBound && !stills.repeatsFrame(before: n + 1)
                    ? o.timelineTime(ofFrame: n + 1) : nil
                renderer.render(
                    at: o.timelineTime(ofFrame: n), prefetching: next, yuv: frame.yuv, rgba: frame.rgba,
                    straightAlpha: true)
                if let refusal = renderer.refusal {
                    failure = .overLimit(file: job.file, refusal)
                    break
                }
                stills.rendered(frame: n, frame)
            }
            // Numbered as the job's frames, so a draft's log lines up with the full render's.
            let frameDigest = FrameHashLog.digest(of: frame.yuv)
            frameHashes?.record(frame: o.startFrame + n, digest: frameDigest)
            digest.add(frame: o.startFrame + n, digest: frameDigest)
            encoder.submit(frame)
            if let delay = FaultInjection.frameDelay { Thread.sleep(forTimeInterval: delay) }
            count {
                $0.rendered = n + 1 - range.lowerBound
                $0.stillsReused = stills.reused
            }
        }
        let encodeError = encoder.finish()
        if let encodeError, failure == nil { failure = .media(encodeError) }
        if let failure {
            writer.abort()
            throw failure
        }
        do {
            try writer.complete(lateTags: [ContainerTags.framesDigest: digest.hex])
        } catch {
            writer.abort()
            throw .media(error)
        }
        return digest
    }
}

/// Where an export's output is written until it is complete: a temp file for a video, a temp
/// folder for a PNG sequence.
enum Destination {
    case file(AtomicOutputFile)
    case folder(AtomicOutputFolder)

    init(output: URL, folder: Bool) throws(ExportError) {
        self =
            folder
            ? .folder(try AtomicOutputFolder(finalURL: output))
            : .file(try AtomicOutputFile(finalURL: output))
    }

    /// The temp file's path for FFmpeg (its open descriptor's).
    var writablePath: String {
        switch self {
        case .file(let file): file.writablePath
        case .folder(let folder): folder.temporaryURL.path
        }
    }

    /// The temp folder of a PNG sequence, opened without following links.
    func temporaryFolder() throws(MediaError) -> OutputDirectory {
        guard case .folder(let folder) = self else {
            throw MediaError(function: "Destination", code: -1, message: "not a folder output")
        }
        return folder.temporaryFolder
    }

    func commit() throws(ExportError) {
        switch self {
        case .file(let file): try file.commit()
        case .folder(let folder): try folder.commit()
        }
    }

    func discard() {
        switch self {
        case .file(let file): file.discard()
        case .folder(let folder): folder.discard()
        }
    }
}
