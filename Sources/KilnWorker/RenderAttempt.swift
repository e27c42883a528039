import Foundation
import KilnExport
import KilnModel
import KilnQueue

/// One attempt's render (a whole job, one segment of a split job, its soundtrack, or its
/// assembly), run inside the render process `kiln __render-attempt`, so a crash or a hang of
/// this job's render cannot take down the worker or the jobs beside it.
public struct RenderAttempt: Sendable {
    let request: AttemptRequest
    let flag: CancellationFlag
    let supervisor: any AttemptSupervisor

    public init(request: AttemptRequest, flag: CancellationFlag, supervisor: any AttemptSupervisor) {
        self.request = request
        self.flag = flag
        self.supervisor = supervisor
    }

    public func run() -> AttemptOutcome {
        do {
            return try render()
        } catch let error as JobLoadError {
            if let signal = flag.cancelledBySignal { return .cancelled(code: signal) }
            return .permanent(error.description)
        } catch let error as ExportError {
            switch error {
            case .cancelled(let code): return .cancelled(code: code)
            case .job(let loadError): return .permanent(loadError.description)
            case .cannotCreateOutput, .media: return .retryable(error.description)
            }
        } catch let error as PermanentFailure {
            return .permanent(error.message)
        } catch {
            return .retryable("\(error)")
        }
    }

    private func render() throws -> AttemptOutcome {
        let job = request.job
        let start = Date()
        let rules = request.roots.rules(jobDirectory: job.baseDirectory)
        let whole = try ExportSession.load(
            .snapshot(
                bytes: Array(job.jobJSON.utf8), file: job.jobFile,
                baseDirectory: URL(fileURLWithPath: job.baseDirectory)),
            options: JobLoadOptions(
                variables: job.variables, limits: try ResourceLimits(overrides: request.limitOverrides),
                pathRules: rules),
            cancellation: flag)
        let loaded: FingerprintedJob
        do {
            loaded =
                try job.draft.map { text throws(DraftError) in try whole.drafted(Draft(text: text)) } ?? whole
        } catch {
            throw PermanentFailure(message: "\(job.jobFile): its queued draft: \(error.message)")
        }
        supervisor.report(progress: 0)
        // The queued output was expanded at enqueue time (dates), so it is checked itself,
        // under this worker's roots, which need not be those `enqueue` had.
        let output = URL(fileURLWithPath: job.output)
        var session = ExportSession(
            job: loaded.job, fingerprint: loaded.fingerprint, output: output, threads: request.threads)
        if let problem = session.outputProblem(under: rules) {
            throw JobLoadError.invalid([
                Diagnostic(
                    file: job.jobFile, path: JSONPath.root.key("output").key("path"), location: nil,
                    message: "refused: \(problem)")
            ])
        }
        try session.createOutputDirectory(log: supervisor.log)
        try session.logFrameHashes(at: request.frameHashes)
        let trap = FaultInjection.trapMarker.map { job.jobJSON.contains($0) } ?? false
        let report: @Sendable (Double) -> Void = { [supervisor] fraction in
            supervisor.report(progress: fraction)
            if trap && fraction > 0 { fatalError("fault injection (trap on job): trapping in job \(job.id)") }
        }
        guard job.isSegment || job.isAssembly else {
            let summary = try session.run(
                plan: SegmentPlan(ranges: [0..<loaded.job.output.frameCount]), cancellation: flag,
                log: supervisor.log, beforeCommit: supervisor.renewBeforeCommit,
                progress: { report($0.fraction) })
            return .completed(output: output.path, frames: summary.frames, seconds: summary.elapsedSeconds)
        }
        guard let plan = session.recordedPlan(request.familyRanges ?? [], count: job.segmentCount) else {
            let ranges = request.familyRanges ?? []
            throw PermanentFailure(
                message:
                    "\(job.jobFile): its \(ranges.count) queued segments (\(ranges.last?.upperBound ?? 0) "
                    + "frames) do not match the job's \(loaded.job.output.frameCount) frames")
        }
        let piece: ExportSession.Piece =
            job.isSoundtrack ? .soundtrack : job.segmentIndex.map(ExportSession.Piece.segment) ?? .assembly
        let made = try session.run(
            piece, of: plan, cancellation: flag, log: supervisor.log,
            beforeCommit: supervisor.renewBeforeCommit, progress: report)
        return .completed(
            output: made.output.path, frames: made.frames, seconds: Date().timeIntervalSince(start))
    }
}

/// A failure no retry can mend: the job is discarded at once.
struct PermanentFailure: Error {
    let message: String
}
