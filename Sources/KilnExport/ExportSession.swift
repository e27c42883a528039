import Foundation
import KilnModel

/// One render of one job, from its text to the output in place: the steps `kiln render`, a queue
/// worker's render process, `preview`, `sheet` and `sweep` all take (load under a cancellation
/// flag, check and prepare the output, plan segments, render with resume, commit atomically),
/// written once. Callers keep only what is theirs: the command line its options, progress
/// display and exit codes; the worker its heartbeats and attempt outcomes.
public struct ExportSession: Sendable {
    /// The job as it is rendered (drafted, reformatted, within a byte budget).
    public let job: Job
    /// Keys the job's segments and soundtrack (`FingerprintedJob`): a changed job never reuses them.
    public let fingerprint: String
    /// The output as the caller asked for it; nil for the job's own path.
    public let requestedOutput: URL?
    /// A still picture of the job rather than its video: a file even for a PNG-sequence job.
    public let isStill: Bool
    public private(set) var export: VideoExport
    /// Where a segmented export finds and stores its encoded pieces by their frames' digests
    /// (`kiln render --cache`); nil renders every piece.
    public var chunkCache: ChunkCache?
    /// Told what the cache could not do (an entry discarded, a write that failed): never an error.
    public var cacheWarning: (@Sendable (String) -> Void)?

    public init(job: Job, fingerprint: String = "", output: URL? = nil, threads: Int? = nil) {
        self.init(job: job, fingerprint: fingerprint, output: output, threads: threads, isStill: false)
    }

    /// A session that writes one still picture of the job (a frame, a contact sheet, a sweep).
    public init(stillOf job: Job, output: URL, threads: Int? = nil) {
        self.init(job: job, output: output, threads: threads, isStill: true)
    }

    private init(job: Job, fingerprint: String = "", output: URL?, threads: Int?, isStill: Bool) {
        self.job = job
        self.fingerprint = fingerprint
        self.requestedOutput = output
        self.isStill = isStill
        export = VideoExport(job: job, output: output, threads: threads)
    }

    /// The output with its folder's links resolved (`OutputLocation`).
    public var output: URL { export.output }
    /// The output as asked for, else the job's own: what messages name.
    public var destination: URL { requestedOutput ?? output }
    public var threads: Int { export.threads }
}

// MARK: - Loading

extension ExportSession {
    /// Where a job's text comes from.
    public enum Source: Sendable {
        case file(String)
        /// A queue's snapshot of the job, decoded as if read from `file` in `baseDirectory`.
        case snapshot(bytes: [UInt8], file: String, baseDirectory: URL)
    }

    /// Loads and fingerprints a job, stopping early once `cancellation` is set: a load that a
    /// signal or a lost lease interrupted fails as `.cancelled`, whatever the load itself said.
    public static func load(
        _ source: Source, options: JobLoadOptions, cancellation: CancellationFlag
    ) throws(ExportError) -> FingerprintedJob {
        let loaded: FingerprintedJob
        do {
            switch source {
            case .file(let path):
                loaded = try JobFiles.loadFingerprinted(
                    file: path, options: options, cancellation: cancellation)
            case .snapshot(let bytes, let file, let baseDirectory):
                loaded = try JobFiles.decodeFingerprinted(
                    bytes: bytes, file: file, baseDirectory: baseDirectory, options: options,
                    cancellation: cancellation)
            }
        } catch {
            if let signal = cancellation.cancelledBySignal { throw .cancelled(signal: signal) }
            throw .job(error)
        }
        if let signal = cancellation.cancelledBySignal { throw .cancelled(signal: signal) }
        return loaded
    }

    /// Loads a job for stills: nothing of a still is resumed, so it needs no fingerprint.
    public static func loadForStills(file: String, options: JobLoadOptions) throws(JobLoadError) -> Job {
        try JobFiles.load(file: file, options: options)
    }
}

// MARK: - The output

extension ExportSession {
    /// Why the output must not be written under `rules` (the job file, one of its inputs, a
    /// device, a link…); nil when it may. The job's own path was checked as it loaded.
    public func outputProblem(under rules: PathRules) -> String? {
        guard let requestedOutput else { return nil }
        return rules.outputProblem(
            requestedOutput, jobFile: job.file, inputs: job.inputFiles,
            folder: !isStill && job.output.format == .pngSequence)
    }

    /// Creates the output's missing folders; `log` hears each one created ("created directory …").
    public func createOutputDirectory(log: (String) -> Void) throws(ExportError) {
        if let created = try AtomicOutputFile.createDirectory(for: destination) {
            log("created directory \(created.path)")
        }
    }

    /// Appends every rendered frame's digest to the file at `path` (`--frame-hashes`, a worker's
    /// setting); nil logs none. Opened (created) here, after the output was checked.
    public mutating func logFrameHashes(at path: String?) throws(ExportError) {
        export.frameHashes = try path.map { path throws(ExportError) in try FrameHashLog(path: path) }
    }
}

// MARK: - Segments

extension ExportSession {
    /// How a request for segments applies to this job's format.
    public enum SegmentChoice: Sendable, Equatable {
        case planned(SegmentPlan)
        /// A long video in a format whose segments cannot be joined: rendered in one piece, so an
        /// interruption starts it again.
        case onePiece(SegmentPlan)
        /// Segments were asked for explicitly in a format whose segments cannot be joined.
        case refused
    }

    public func segmentChoice(_ request: SegmentPlan.Request) -> SegmentChoice {
        let o = job.output
        let plan = SegmentPlan(
            frameCount: o.frameCount, framesPerSecond: o.frameRate.doubleValue, request: request)
        guard plan.isSegmented, !o.format.supportsSegments else { return .planned(plan) }
        guard request == .automatic else { return .refused }
        return .onePiece(SegmentPlan(ranges: [0..<o.frameCount]))
    }

    /// The ranges a queue recorded for this job's `count` pieces, or nil when they no longer
    /// cover its frames.
    public func recordedPlan(_ ranges: [Range<Int>], count: Int) -> SegmentPlan? {
        let plan = SegmentPlan(ranges: ranges)
        guard plan.ranges.last?.upperBound == job.output.frameCount, plan.count == count else { return nil }
        return plan
    }

    public func segmented(_ plan: SegmentPlan) -> SegmentedExport {
        var segmented = SegmentedExport(export: export, fingerprint: fingerprint, plan: plan)
        segmented.chunkCache = chunkCache
        segmented.cacheWarning = cacheWarning
        return segmented
    }
}

// MARK: - Rendering in this process

extension ExportSession {
    /// What a whole export did.
    public struct Summary: Sendable {
        public let output: URL
        public let frames: Int
        public let elapsedSeconds: Double
        /// nil for an export in one piece.
        public let segments: Int?
        public let reused: Int
        public let rendered: Int
        /// Frames of a one-piece export copied from the identical frame before them.
        public var stillFramesReused = 0
    }

    /// The whole export in this process, in one piece or in `plan`'s segments (resuming from
    /// those an earlier run finished). What killed renders of this output left half-written is
    /// removed first, each named to `log`. `beforeCommit` runs before each file is renamed into
    /// place; false abandons it (a worker that lost its lease).
    public func run(
        plan: SegmentPlan, cancellation: CancellationFlag, log: (String) -> Void = { _ in },
        beforeCommit: (() -> Bool)? = nil, progress: (@Sendable (ExportProgress) -> Void)? = nil
    ) throws(ExportError) -> Summary {
        guard plan.isSegmented else {
            StaleTemporaryFiles.remove(besides: output, log: log)
            let summary = try export.run(
                cancellation: cancellation, progress: progress, beforeCommit: beforeCommit)
            var whole = Summary(
                output: summary.output, frames: summary.frames, elapsedSeconds: summary.elapsedSeconds,
                segments: nil, reused: 0, rendered: 1)
            whole.stillFramesReused = summary.stillFramesReused
            return whole
        }
        let segmented = segmented(plan)
        segmented.removeStaleTemporaries(log: log)
        let summary = try segmented.run(
            cancellation: cancellation, progress: progress, beforeCommit: beforeCommit)
        return Summary(
            output: summary.output, frames: summary.frames, elapsedSeconds: summary.elapsedSeconds,
            segments: summary.segments, reused: summary.reused, rendered: summary.rendered)
    }
}
