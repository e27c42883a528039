import Foundation
import KilnModel

/// The pieces of a job split across a queue's workers, each rendered by whichever worker claims
/// it and each resumable: a piece found finished is reused, not rendered again.
extension ExportSession {
    public enum Piece: Sendable, Equatable {
        case segment(Int)
        /// The soundtrack, encoded once for the whole timeline.
        case soundtrack
        /// The join of the finished segments and the soundtrack into the output.
        case assembly
    }

    /// What a piece made: its file and its frames (none for the soundtrack).
    public struct PieceSummary: Sendable, Equatable {
        public let output: URL
        public let frames: Int
    }

    /// Renders `piece` of `plan`. `progress` gets the piece's fraction done; `log` hears what is
    /// reused, what is missing and what half-written files are removed first.
    public func run(
        _ piece: Piece, of plan: SegmentPlan, cancellation: CancellationFlag, log: (String) -> Void,
        beforeCommit: (() -> Bool)? = nil, progress: @escaping (Double) -> Void
    ) throws(ExportError) -> PieceSummary {
        let segmented = segmented(plan)
        segmented.removeStaleTemporaries(log: log)
        switch piece {
        case .soundtrack:
            progress(0.5)
            if !(try segmented.renderAudio(cancellation: cancellation)) {
                log("the soundtrack was already encoded; reused")
            }
            return PieceSummary(output: segmented.audioURL, frames: 0)
        case .segment(let index):
            let frames = plan.ranges[index].count
            let rendered = try segmented.renderSegment(
                index, cancellation: cancellation, progress: { progress($0.fraction(of: frames)) },
                beforeCommit: beforeCommit)
            if !rendered {
                log("segment \(index + 1) of \(plan.count) was already finished; reused")
            }
            return PieceSummary(output: segmented.url(ofSegment: index), frames: frames)
        case .assembly:
            let frames = try assemble(
                segmented, cancellation: cancellation, log: log, beforeCommit: beforeCommit,
                progress: progress)
            return PieceSummary(output: destination, frames: frames)
        }
    }

    /// Joins the segments. One whose file is missing (removed by hand, or rendered by a worker of
    /// another Kiln version, whose keys differ) is rendered here first.
    private func assemble(
        _ segmented: SegmentedExport, cancellation: CancellationFlag, log: (String) -> Void,
        beforeCommit: (() -> Bool)?, progress: @escaping (Double) -> Void
    ) throws(ExportError) -> Int {
        let missing = segmented.plan.ranges.indices.filter { !segmented.isFinished($0) }
        for (n, index) in missing.enumerated() {
            log("segment \(index + 1) of \(segmented.plan.count) is missing; rendering it before assembly")
            try segmented.renderSegment(
                index, cancellation: cancellation,
                progress: { _ in progress(Double(n) / Double(missing.count + 1) * 0.9) },
                beforeCommit: beforeCommit)
        }
        if !segmented.isAudioFinished {
            log("the soundtrack is missing; encoding it before assembly")
            try segmented.renderAudio(cancellation: cancellation)
        }
        progress(0.95)
        return try segmented.assemble(beforeCommit: beforeCommit)
    }
}
