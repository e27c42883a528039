import Foundation
import KilnCommandLine
import KilnExport
import KilnQueue

/// `kiln review [OUTPUT…|--since DUR|--batch ID] -o review.html`: one static page to watch and
/// judge a set of rendered videos.
enum ReviewCommand: KilnSubcommand {
    static let since = OptionSpec(
        "--since", kind: .string, placeholder: "DURATION",
        help: "the queue's jobs completed within DURATION (90, 45s, 30m, 12h, 7d, 1h30m)")
    static let batch = OptionSpec(
        "--batch", kind: .int(1...Int.max), placeholder: "ID",
        help: "the queue's completed jobs of batch ID (the id of its first job; see `kiln status ID`)")
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
            job and variables, a contact sheet, and an approve / needs-changes note that Export JSON
            saves as [{video, verdict, note}]. Videos are linked relative to the page; posters and
            sheets are inlined, rendered from the queued job (decoded from the file when
            no job is known). Give MP4 files, --since or --batch:
            a file the queue has no completed job for shows its render time and job as unknown.
            Written when a batch or a schedule run ends by the worker's hook: `kiln worker
            --on-done 'kiln review --batch "$KILN_JOB_BATCH" --if-ended -o DIR/review.html'`.
            """,
        options: [since, batch, ifEnded, output, .threads, .queue],
        positionals: [PositionalSpec("OUTPUT", kind: .path, count: .zeroOrMore, help: "MP4 files to review")])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        guard let pagePath = args.string(output) else { throw args.usageError("review needs -o PAGE.html") }
        let page = URL(fileURLWithPath: pagePath).standardizedFileURL
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
        if let missing = picked.first(where: { !FileManager.default.fileExists(atPath: $0.path) }) {
            Output.error(
                "\(missing.path): no such file" + (missing.job.map { " (job \($0.id)'s output)" } ?? ""))
            return ExitCode.noInput
        }
        let items = picked.map {
            ReviewItem(path: $0.path, job: $0.job, store: store, threads: args.int(.threads))
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
                Output.error("no batch \(id) in the queue")
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
