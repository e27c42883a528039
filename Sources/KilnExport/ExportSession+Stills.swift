import Foundation
import KilnModel

/// Stills of a job (`preview`, `sheet`, `sweep`), rendered with the session's threads.
extension ExportSession {
    public var preview: FramePreview { FramePreview(job: job, threads: threads) }
    public var contactSheet: ContactSheet { ContactSheet(job: job, threads: threads) }

    /// A grid's memory against the job's budget (issue 41: 400 combinations of a 2560×1440 job
    /// took 6.08 GB): the cells held until the sheet is composed, the sheet and its encoded
    /// copies, and the full-size frames of the renders running at once (each with its job's own
    /// estimate left to the load). nil when it fits.
    public func memoryProblem(grid: FrameGrid, cells: Int) -> String? {
        let sheet = grid.size(cells: cells)
        let cellBytes = Double(cells) * Double(grid.cellWidth) * Double(grid.cellHeight) * 4
        let sheetBytes = Double(sheet.width) * Double(sheet.height) * 4 * 3
        let frames = Double(threads) * Double(job.output.width) * Double(job.output.height) * 20
        let total = cellBytes + sheetBytes + frames
        let budget = MemoryBudget(limits: job.limits)
        guard total > budget.limit else { return nil }
        return "the grid of \(cells) cells of \(grid.cellWidth)x\(grid.cellHeight) needs about "
            + "\(MemoryBudget.megabytes(total)) MB, over its memory budget (the limit memory-megabytes = "
            + "\(ResourceLimits.text(job.limits[.memoryMegabytes])); fewer cells or a smaller --width, or raise it "
            + "with --limit memory-megabytes=N)"
    }
}
