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
        let whole = try JobFiles.decodeFingerprinted(
            bytes: Array(job.jobJSON.utf8), file: job.jobFile,
            baseDirectory: URL(fileURLWithPath: job.baseDirectory),
            options: JobLoadOptions(
                variables: job.variables, limits: try ResourceLimits(overrides: request.limitOverrides),
                pathRules: rules),
            cancellation: flag)
        if let signal = flag.cancelledBySignal { throw ExportError.cancelled(signal: signal) }
        let loaded: FingerprintedJob
        do {
            loaded =
                try job.draft.map { text throws(DraftError) in try whole.drafted(Draft(text: text)) } ?? whole
        } catch {
            throw PermanentFailure(message: "\(job.jobFile): its queued draft: \(error.message)")
        }
        supervisor.report(progress: 0)
        let output = URL(fileURLWithPath: job.output)
        // The queued output was expanded at enqueue time (dates), so it is checked itself,
        // under this worker's roots, which need not be those `enqueue` had.
        if let problem = rules.outputProblem(
            output, jobFile: job.jobFile, inputs: loaded.job.inputFiles,
            folder: loaded.job.output.format == .pngSequence)
        {
            throw JobLoadError.invalid([
                Diagnostic(
                    file: job.jobFile, path: JSONPath.root.key("output").key("path"), location: nil,
                    message: "refused: \(problem)")
            ])
        }
        if let created = try AtomicOutputFile.createDirectory(for: output) {
            supervisor.log("created directory \(created.path)")
        }
        let export = VideoExport(
            job: loaded.job, output: output, threads: request.threads,
            frameHashes: try request.frameHashes.map { path throws(ExportError) in
                try FrameHashLog(path: path)
            })
        let trap = FaultInjection.trapMarker.map { job.jobJSON.contains($0) } ?? false
        let report: @Sendable (Double) -> Void = { [supervisor] fraction in
            supervisor.report(progress: fraction)
            if trap && fraction > 0 { fatalError("fault injection (trap on job): trapping in job \(job.id)") }
        }
        guard job.isSegment || job.isAssembly else {
            StaleTemporaryFiles.remove(besides: output, log: supervisor.log)
            let summary = try export.run(
                cancellation: flag,
                progress: { report($0.fraction) },
                beforeCommit: supervisor.renewBeforeCommit)
            return .completed(output: output.path, frames: summary.frames, seconds: summary.elapsedSeconds)
        }
        let plan = SegmentPlan(ranges: request.familyRanges ?? [])
        guard plan.ranges.last?.upperBound == loaded.job.output.frameCount, plan.count == job.segmentCount
        else {
            throw PermanentFailure(
                message:
                    "\(job.jobFile): its \(plan.count) queued segments (\(plan.ranges.last?.upperBound ?? 0) "
                    + "frames) do not match the job's \(loaded.job.output.frameCount) frames")
        }
        let segmented = SegmentedExport(export: export, fingerprint: loaded.fingerprint, plan: plan)
        segmented.removeStaleTemporaries(log: supervisor.log)
        let seconds = { Date().timeIntervalSince(start) }
        if job.isSoundtrack {
            report(0.5)
            if !(try segmented.renderAudio(cancellation: flag)) {
                supervisor.log("the soundtrack was already encoded; reused")
            }
            return .completed(output: segmented.audioURL.path, frames: 0, seconds: seconds())
        }
        if let index = job.segmentIndex {
            let frames = plan.ranges[index].count
            let rendered = try segmented.renderSegment(
                index, cancellation: flag, progress: { report($0.fraction(of: frames)) },
                beforeCommit: supervisor.renewBeforeCommit)
            if !rendered {
                supervisor.log("segment \(index + 1) of \(plan.count) was already finished; reused")
            }
            return .completed(
                output: segmented.url(ofSegment: index).path, frames: frames, seconds: seconds())
        }
        return .completed(
            output: output.path, frames: try assemble(segmented, report: report), seconds: seconds())
    }

    /// Joins the segments. One whose file is missing (removed by hand, or rendered by a worker of
    /// another Kiln version, whose keys differ) is rendered here first.
    private func assemble(_ segmented: SegmentedExport, report: @escaping (Double) -> Void) throws -> Int {
        let missing = segmented.plan.ranges.indices.filter { !segmented.isFinished($0) }
        for (n, index) in missing.enumerated() {
            supervisor.log(
                "segment \(index + 1) of \(segmented.plan.count) is missing; rendering it before assembly")
            try segmented.renderSegment(
                index, cancellation: flag,
                progress: { _ in report(Double(n) / Double(missing.count + 1) * 0.9) },
                beforeCommit: supervisor.renewBeforeCommit)
        }
        if !segmented.isAudioFinished {
            supervisor.log("the soundtrack is missing; encoding it before assembly")
            try segmented.renderAudio(cancellation: flag)
        }
        report(0.95)
        return try segmented.assemble(beforeCommit: supervisor.renewBeforeCommit)
    }
}

/// A failure no retry can mend: the job is discarded at once.
struct PermanentFailure: Error {
    let message: String
}
