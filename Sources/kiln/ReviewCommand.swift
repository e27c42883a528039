import Foundation
import KilnCommandLine
import KilnExport
import KilnModel
import KilnQueue

/// `kiln review [OUTPUT…|--since DUR|--batch ID] -o review.html`: one static page to watch and
/// judge a set of rendered videos.
enum ReviewCommand: KilnSubcommand {
    static let since = OptionSpec(
        "--since", kind: .string, placeholder: "DURATION",
        help: "the queue's jobs completed within DURATION (90, 45s, 30m, 12h, 7d, 1h30m)")
    static let batch = OptionSpec(
        "--batch", kind: .int(1...Int.max), placeholder: "ID",
        help: "the queue's completed jobs of the batch job ID belongs to (see `kiln status ID`)")
    static let ifEnded = OptionSpec.flag(
        "--if-ended",
        help: "with --batch: write nothing (and exit 0) while a job of the batch has yet to end; for a "
            + "worker's --on-done hook, so the page is written when the batch's last job ends")
    static let output = OptionSpec(
        "--output", short: "o", kind: .path, help: "the page to write, ending in .html (required)")
    static let spec = CommandSpec(
        "review", summary: "a static HTML page to watch, compare and approve rendered videos",
        description: """
            Writes one self-contained HTML page with, per video, a poster, a player, its duration,
            size, codec and colour tags (read from the file), render time and real-time factor, its
            job and variables, a contact sheet, and an approve / needs-changes note. Two videos
            picked on the page, or a video and the previous render of its job file found in the
            queue, are compared with one transport for both: side by side, as a wipe, or as their
            difference (|A - B|, amplified; black where identical). A click on a video's timeline
            pins a note at that time. Export JSON saves [{video, verdict, note, notes: [{time,
            text}]}]. Videos are linked relative to the page; one that shares no folder but the
            root with the page is listed as unreachable, and no absolute path is written. Posters
            and sheets are inlined, rendered from the queued job (decoded from the file when no job
            is known). Give MP4, MOV or WebM files, --since or --batch: for a file the queue has
            no completed job for, the render time and job come from the file's kiln_* tags (which
            Kiln writes into every MP4, MOV and WebM), else show as unknown.
            Written when a batch or a schedule run ends by the worker's hook: `kiln worker
            --on-done 'kiln review --batch "$KILN_JOB_BATCH" --if-ended -o DIR/review.html'`.
            """,
        options: [since, batch, ifEnded, output, .threads, .queue],
        positionals: [
            PositionalSpec(
                "OUTPUT", kind: .path, count: .zeroOrMore, help: "video files (MP4, MOV, WebM) to review")
        ])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        guard let pagePath = args.string(output) else { throw args.usageError("review needs -o PAGE.html") }
        // Its folder resolved, its name not: a link planted at the page's name is refused, never
        // followed (`standardizedFileURL` would resolve it when the path holds `..`).
        let page = OutputLocation(pagePath).url
        guard ["html", "htm"].contains(page.pathExtension.lowercased()) else {
            throw args.usageError("-o \(pagePath): the page's name must end in .html")
        }
        let forms = [!args.positionals.isEmpty, args.string(since) != nil, args.int(batch) != nil].count {
            $0
        }
        guard forms == 1 else {
            throw args.usageError("give MP4 files, --since DURATION or --batch ID (one of them)")
        }
        if args.flag(ifEnded) && args.int(batch) == nil {
            throw args.usageError("--if-ended goes with --batch")
        }
        let picked: [(path: String, job: QueuedJob?)]
        let store: QueueStore?
        if args.positionals.isEmpty {
            let opened = try QueueLocation.open(try QueueLocation.databasePath(args))
            store = opened
            if let id = args.int(batch), args.flag(ifEnded) {
                let waiting = try opened.jobs(inBatch: Int64(id)).count { !$0.state.isTerminal }
                if waiting > 0 {
                    Output.stderr(
                        "kiln: batch \(id) has \(waiting) job\(waiting == 1 ? "" : "s") yet to end: no page yet"
                    )
                    return ExitCode.ok
                }
            }
            guard let jobs = try queuedVideos(args, store: opened) else { return ExitCode.noInput }
            picked = jobs.map { ($0.output, $0) }
        } else {
            store = try existingQueue(args)
            let completed = try store?.jobs(states: [.completed]).filter { !$0.isSegment } ?? []
            picked = args.positionals.map { given in
                let path = URL(fileURLWithPath: given).standardizedFileURL.path
                let job = completed.filter {
                    URL(fileURLWithPath: $0.output).standardizedFileURL.path == path
                }
                .max { ($0.finishedAt ?? 0) < ($1.finishedAt ?? 0) }
                return (path, job)
            }
        }
        // Each video is opened (non-blocking) and checked to be a regular file before anything
        // reads it: a FIFO would block the probe forever, /dev/zero would be read without end.
        var opened: [(video: ReviewVideo, job: QueuedJob?)] = []
        for (path, job) in picked {
            switch ReviewVideo.open(path) {
            case .success(let video): opened.append((video, job))
            case .failure(let problem):
                let whose = job.map { " (job \($0.id)'s output)" } ?? ""
                // A queued job's output that has since become something else is left off the
                // page; a file the user named is an error.
                if job != nil, case .notRegular = problem {
                    Output.stderr("kiln: \(path)\(whose): \(problem): not on the page")
                    continue
                }
                Output.error("\(path)\(whose): \(problem)")
                return ExitCode.noInput
            }
        }
        guard !opened.isEmpty else {
            Output.error("no completed job's output is a video file to review")
            return ExitCode.noInput
        }
        var items = opened.map {
            ReviewItem(video: $0.video, job: $0.job, store: store, threads: args.int(.threads))
        }
        if let store {
            let history = (try? store.jobs(states: [.completed]).filter { !$0.isSegment }) ?? []
            for index in items.indices {
                if let job = items[index].job {
                    items[index].previous = previousRender(of: job, in: history)
                }
            }
        }
        for item in items {
            for note in item.notes { Output.stderr("kiln: \(item.path): \(note)") }
        }
        let html = ReviewPage(
            title: title(args), items: items, directory: page.deletingLastPathComponent(), generatedAt: Date()
        ).html()
        do {
            if let created = try AtomicOutputFile.createDirectory(for: page) {
                Output.stderr("kiln: created directory \(created.path)")
            }
            let file = try AtomicOutputFile(finalURL: page)
            try file.write(Array(html.utf8))
            try file.commit()
        } catch {
            Output.error(error.description)
            return error.exitCode
        }
        Output.stderr("kiln: wrote \(page.path) (\(items.count) video\(items.count == 1 ? "" : "s"))")
        return ExitCode.ok
    }

    /// The completed jobs `--batch` or `--since` names, oldest first; the rest of a batch is
    /// reported, since a page missing a video should say why. Nil (said on stderr) when none.
    static func queuedVideos(_ args: ParsedArguments, store: QueueStore) throws -> [QueuedJob]? {
        var chosen: [QueuedJob]
        if let id = args.int(batch) {
            let members = try store.jobs(inBatch: Int64(id))
            guard !members.isEmpty else {
                Output.error("no batch with job \(id) in the queue")
                return nil
            }
            for job in members where job.state != .completed {
                Output.stderr("kiln: job \(job.id) of batch \(id) is \(job.state.rawValue): not on the page")
            }
            chosen = members.filter { $0.state == .completed }
        } else {
            guard let text = args.string(since), let seconds = DurationText.seconds(text) else {
                throw args.usageError("--since expects a duration such as 90, 45s, 30m, 12h or 1h30m")
            }
            let after = store.currentTime() - seconds
            chosen = try store.jobs(states: [.completed]).filter {
                !$0.isSegment && ($0.finishedAt ?? 0) >= after
            }
        }
        chosen.sort { ($0.finishedAt ?? 0, $0.id) < ($1.finishedAt ?? 0, $1.id) }
        guard !chosen.isEmpty else {
            Output.error("no completed jobs to review")
            return nil
        }
        return chosen
    }

    /// The latest render of the same job file that completed before `job` to another output,
    /// if that file is still a regular file: what "compare with previous" plays beside it.
    static func previousRender(of job: QueuedJob, in history: [QueuedJob]) -> String? {
        let output = URL(fileURLWithPath: job.output).standardizedFileURL.path
        return
            history
            .filter {
                $0.id != job.id && $0.jobFile == job.jobFile && ($0.finishedAt ?? 0) <= (job.finishedAt ?? 0)
                    && URL(fileURLWithPath: $0.output).standardizedFileURL.path != output
                    && FileKind.nonRegular(atPath: $0.output, followingLinks: true) == nil
                    && FileManager.default.fileExists(atPath: $0.output)
            }
            .max { ($0.finishedAt ?? 0, $0.id) < ($1.finishedAt ?? 0, $1.id) }?
            .output
    }

    /// For files given directly the queue is only consulted: one that does not exist yet is not
    /// created, and an unreachable one leaves the render times unknown instead of failing.
    static func existingQueue(_ args: ParsedArguments) throws -> QueueStore? {
        let location = try QueueLocation.databasePath(args)
        guard QueueLocation.isPostgres(location) || FileManager.default.fileExists(atPath: location) else {
            return nil
        }
        do {
            return try QueueLocation.open(location)
        } catch {
            Output.stderr("kiln: the queue could not be opened (\(error)): render times are unknown")
            return nil
        }
    }

    static func title(_ args: ParsedArguments) -> String {
        if let id = args.int(batch) { return "Review: batch \(id)" }
        if let text = args.string(since) { return "Review: completed in the last \(text)" }
        return "Review"
    }
}

/// A video to review, opened once: `O_NONBLOCK` so a FIFO cannot block the open, then `fstat` on
/// the descriptor, so only a regular file is ever read (never a FIFO, device or socket, whatever
/// its name says by then). Readers that take a path read `/proc/self/fd/N`.
final class ReviewVideo {
    enum Problem: Error, CustomStringConvertible {
        case missing
        case notRegular(String)
        case unreadable(String)

        var description: String {
            switch self {
            case .missing: "no such file"
            case .notRegular(let kind): "is \(kind), not a regular file; only video files are reviewed"
            case .unreadable(let reason): "cannot be read (\(reason))"
            }
        }
    }

    let path: String
    let readablePath: String
    let bytes: Int64
    private let descriptor: Int32

    private init(path: String, descriptor: Int32, bytes: Int64) {
        self.path = path
        self.descriptor = descriptor
        self.bytes = bytes
        readablePath = OutputDirectory.path(ofOpenFile: descriptor, fallback: path)
    }

    deinit { close(descriptor) }

    static func open(_ path: String) -> Result<ReviewVideo, Problem> {
        // stat first: what it is can be said without opening it at all.
        if let kind = FileKind.nonRegular(atPath: path, followingLinks: true) {
            return .failure(.notRegular(kind))
        }
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno))))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            return .failure(.unreadable(reason))
        }
        if let kind = FileKind.nonRegular(mode: info.st_mode) {
            close(fd)
            return .failure(.notRegular(kind))
        }
        return .success(ReviewVideo(path: path, descriptor: fd, bytes: Int64(info.st_size)))
    }
}
