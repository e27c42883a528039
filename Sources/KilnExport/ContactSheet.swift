import Foundation
import KilnMedia
import KilnModel
import KilnRaster
import Synchronization

/// A job's frames at regular times on one sheet (`kiln sheet`): each cell is the frame the video
/// shows at its time, rendered as `kiln preview` renders it, then shrunk to the cell.
public struct ContactSheet: Sendable {
    public enum Spacing: Sendable, Equatable {
        /// N frames from the first to the last, evenly spaced.
        case count(Int)
        /// A frame every S seconds from the start.
        case every(Double)
    }

    /// More cells than this is not a sheet anyone reads, and each costs a full render.
    public static let maximumCells = 400

    public let job: Job
    public let threads: Int

    public init(job: Job, threads: Int? = nil) {
        self.job = job
        self.threads = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The frame indices to show, in order, without repeats (a short job has fewer frames than
    /// asked for); nil when the spacing asks for more than `maximumCells`.
    public func frames(_ spacing: Spacing) -> [Int]? {
        let count = job.output.frameCount
        var frames: [Int] = []
        switch spacing {
        case .count(let wanted):
            guard wanted <= Self.maximumCells else { return nil }
            let shown = max(1, min(wanted, count))
            frames =
                shown == 1
                ? [0] : (0..<shown).map { Int((Double($0 * (count - 1)) / Double(shown - 1)).rounded()) }
        case .every(let seconds):
            let preview = FramePreview(job: job)
            let steps = job.output.durationSeconds / seconds
            guard steps.isFinite, steps < Double(Self.maximumCells) else { return nil }
            var time = 0.0, step = 0
            while let index = preview.frameIndex(atSeconds: time) {
                if frames.last != index { frames.append(index) }
                step += 1
                time = Double(step) * seconds
            }
        }
        var seen = Set<Int>()
        return frames.filter { seen.insert($0).inserted }
    }

    /// `0:03.20 · frame 96`.
    public func caption(frame: Int) -> String {
        let seconds = job.output.time(ofFrame: frame)
        let minutes = Int(seconds / 60)
        return String(format: "%d:%05.2f · frame %d", minutes, seconds - Double(minutes * 60), frame)
    }

    /// Renders `frames` (several at once, each on a share of the threads) and lays them out.
    public func render(frames: [Int], grid: FrameGrid) throws(ExportError) -> RGBA8Frame {
        let rendered = try FrameBatch(threads: threads).render(count: frames.count) {
            index, threads throws(ExportError) in
            try grid.cell(FramePreview(job: job, threads: threads).render(frame: frames[index]))
        }
        do {
            return try grid.compose(
                zip(rendered, frames).map { FrameGrid.Cell(frame: $0, caption: caption(frame: $1)) })
        } catch {
            throw .media(error)
        }
    }
}

/// Renders several independent frames at once: up to `threads` workers (at most 4, which keeps
/// a 4K sheet's frames in memory small), each with its share of the threads. Every frame is the
/// same whatever the split: a frame's pixels do not depend on its thread count.
public struct FrameBatch: Sendable {
    public let threads: Int

    public init(threads: Int) {
        self.threads = max(1, threads)
    }

    public func render<Rendered: Sendable>(
        count: Int, _ body: @Sendable (_ index: Int, _ threads: Int) throws(ExportError) -> Rendered
    ) throws(ExportError) -> [Rendered] {
        let workers = max(1, min(threads, count, 4))
        let share = max(1, threads / workers)
        let results = ResultSlots<Rendered>(count: count)
        let next = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < count, !results.failed else { return }
                do throws(ExportError) {
                    results.set(index, .success(try body(index, share)))
                } catch {
                    results.set(index, .failure(error))
                }
            }
        }
        return try results.collect()
    }
}

/// Where concurrent renders leave their frames (or the first error).
private final class ResultSlots<Rendered: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<Rendered, ExportError>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    var failed: Bool {
        lock.withLock { slots.contains { if case .failure = $0 { true } else { false } } }
    }

    func set(_ index: Int, _ result: Result<Rendered, ExportError>) {
        lock.withLock { slots[index] = result }
    }

    func collect() throws(ExportError) -> [Rendered] {
        var frames: [Rendered] = []
        for slot in lock.withLock({ slots }) {
            switch slot {
            case .success(let frame)?: frames.append(frame)
            case .failure(let error)?: throw error
            case nil: break
            }
        }
        return frames
    }
}

/// Writes a sheet (or any picture) to `url` in `format`, whole or not at all.
public enum StillImageFile {
    public static func write(_ image: RGBA8Frame, as format: ImageFormat, to url: URL) throws(ExportError) {
        try write(image, as: format, to: try AtomicOutputFile(finalURL: url))
    }

    static func write(_ image: RGBA8Frame, as format: ImageFormat, to file: AtomicOutputFile)
        throws(ExportError)
    {
        let bytes: [UInt8]
        do {
            bytes = try StillImageEncoder.encode(
                format, rgba: image.bytes, width: image.width, height: image.height, stride: image.stride)
        } catch {
            throw .media(error)
        }
        try file.write(bytes)
        try file.commit()
    }
}
