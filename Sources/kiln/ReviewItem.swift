import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnQueue
import KilnRaster

/// One video on the review page: what its file says, what the queue knows of how it was made,
/// and pictures of its job's frames. Every part that could not be found is nil, with the reason
/// in `notes`, so the page says "unknown" instead of guessing.
struct ReviewItem {
    /// Absolute path of the MP4.
    var path: String
    var facts: VideoFileFacts?
    var bytes: Int64?
    /// The queue's record of the job that wrote it (nil for a file the queue does not know).
    var job: QueuedJob?
    /// Wall seconds from the completed attempt's start (a split job's first segment's) to its end;
    /// without a queue record, the time recorded on the file (`RenderTimeAttribute`).
    var renderSeconds: Double?
    /// The file's container tags (`ContainerTags`: kiln_job, kiln_version, kiln_frames_digest…).
    var tags: [String: String] = [:]
    /// An earlier completed render of the same job file to another output that still exists:
    /// the page offers to compare with it.
    var previous: String?
    /// JPEG bytes: the middle frame and the contact sheet, rendered from the job, or decoded from
    /// the file when the job is unknown or cannot be loaded.
    var poster: [UInt8]?
    var sheet: [UInt8]?
    var notes: [String] = []

    /// Real-time factor: seconds of video per second of rendering.
    var realTimeFactor: Double? {
        guard let seconds = facts?.durationSeconds, let render = renderSeconds, render > 0 else { return nil }
        return seconds / render
    }

    static let sheetCells = 8
    static let sheetCellWidth = 240

    /// What the file is read through: the descriptor `ReviewVideo` opened and checked (a FIFO
    /// or device swapped in by name afterwards is never opened).
    private let readablePath: String

    init(video: ReviewVideo, job: QueuedJob?, store: QueueStore?, threads: Int?) {
        self.path = video.path
        self.readablePath = video.readablePath
        self.job = job
        do {
            facts = try VideoFileFacts.probe(path: readablePath)
        } catch {
            notes.append("the file could not be read: \(error.description)")
        }
        bytes = video.bytes
        // A file from elsewhere may say anything: only kiln_* tags, each cut short, are kept.
        tags = ((try? ContainerTags.read(path: readablePath)) ?? [:])
            .filter { $0.key.hasPrefix("kiln_") }
            .mapValues { String($0.prefix(200)) }
        if let job, let store {
            do {
                renderSeconds = try Self.renderSeconds(job, store: store)
            } catch {
                notes.append("the queue's attempts could not be read: \(error)")
            }
            drawPictures(job, threads: threads)
        } else if tags[ContainerTags.job] != nil {
            renderSeconds = RenderTimeAttribute.read(path: readablePath)
        } else {
            notes.append(
                "no queue record names this file and it carries no kiln tags: render time and job unknown")
        }
        if poster == nil || sheet == nil { grabPictures() }
    }

    /// The job's file as its video says (the name only), when no queue record names it.
    var taggedJob: String? { tags[ContainerTags.job].map(ReviewPage.scrub) }

    /// The completed attempt's wall time; for a split job, from its first segment's start.
    static func renderSeconds(_ job: QueuedJob, store: QueueStore) throws -> Double? {
        guard let done = try store.attempts(jobID: job.id).last(where: { $0.outcome == .completed }),
            let end = done.endedAt
        else { return nil }
        var start = done.startedAt
        if job.isAssembly {
            for piece in try store.segments(ofJob: job.id) {
                for attempt in try store.attempts(jobID: piece.id) where attempt.outcome == .completed {
                    start = min(start, attempt.startedAt)
                }
            }
        }
        return end - start
    }

    /// The poster and the sheet, rendered from the queued job (its snapshot and variables, so they
    /// show what the worker rendered even if the job file has changed since).
    private mutating func drawPictures(_ queued: QueuedJob, threads: Int?) {
        let job: Job
        do {
            job = try JobFiles.decode(
                bytes: Array(queued.jobJSON.utf8), file: queued.jobFile,
                baseDirectory: URL(fileURLWithPath: queued.baseDirectory),
                options: JobLoadOptions(variables: queued.variables))
        } catch {
            notes.append("the job could not be loaded for its pictures: \(error.description)")
            return
        }
        do {
            let frame = try FramePreview(job: job, threads: threads).render(frame: job.output.frameCount / 2)
            poster = try Self.jpeg(frame)
            let sheet = ContactSheet(job: job, threads: threads)
            let frames = sheet.frames(.count(Self.sheetCells)) ?? [0]
            let width = min(Self.sheetCellWidth, job.output.width)
            let grid = FrameGrid(
                title: "\(queued.name)  ·  \(frames.count) frames", columns: min(4, frames.count),
                cellWidth: width,
                cellHeight: max(
                    1, Int((Double(width * job.output.height) / Double(job.output.width)).rounded())))
            self.sheet = try Self.jpeg(try sheet.render(frames: frames, grid: grid))
        } catch {
            notes.append("the job's frames could not be rendered: \(error)")
        }
    }

    /// Without a job to render, the poster and sheet are the file's own decoded frames (the
    /// sheet's title says so).
    private mutating func grabPictures() {
        guard let facts, facts.frameCount > 0, facts.frameRate > 0 else { return }
        let last = facts.frameCount - 1
        let shown = min(Self.sheetCells, facts.frameCount)
        let indices =
            shown == 1 ? [0] : (0..<shown).map { Int((Double($0 * last) / Double(shown - 1)).rounded()) }
        // Half a frame in: the middle of the time each frame is shown, clear of rounding either way.
        let times = ([last / 2] + indices).map { (Double($0) + 0.5) / facts.frameRate }
        do {
            let images = try VideoFrameGrab.frames(path: readablePath, atSeconds: times).map(Self.frame)
            if poster == nil { poster = try Self.jpeg(images[0]) }
            guard sheet == nil else { return }
            let width = min(Self.sheetCellWidth, facts.width)
            let grid = FrameGrid(
                title:
                    "\(URL(fileURLWithPath: path).lastPathComponent)  ·  \(shown) frames decoded from the file",
                columns: min(4, shown), cellWidth: width,
                cellHeight: max(1, Int((Double(width * facts.height) / Double(facts.width)).rounded())))
            let cells = zip(images.dropFirst(), indices).map { image, index in
                let seconds = Double(index) / facts.frameRate
                let minutes = Int(seconds / 60)
                return FrameGrid.Cell(
                    frame: image,
                    caption: String(
                        format: "%d:%05.2f · frame %d", minutes, seconds - Double(minutes * 60), index))
            }
            sheet = try Self.jpeg(try grid.compose(cells))
        } catch {
            notes.append("the file's frames could not be decoded for its pictures: \(error)")
        }
    }

    static func frame(_ image: DecodedImage) -> RGBA8Frame {
        let frame = RGBA8Frame(width: image.width, height: image.height)
        image.rgba.withUnsafeBufferPointer { frame.bytes.update(from: $0.baseAddress!, count: $0.count) }
        return frame
    }

    static func jpeg(_ frame: RGBA8Frame) throws -> [UInt8] {
        try StillImageEncoder.encode(
            .jpeg, rgba: frame.bytes, width: frame.width, height: frame.height, stride: frame.stride)
    }
}
