import Foundation
import KilnCommandLine
import KilnExport
import KilnModel

enum RenderCommand: KilnSubcommand {
    static let output = OptionSpec(
        "--output", short: "o", kind: .path,
        help: "output file (default: the job's output.path; for a draft, NAME.draft.mp4 beside it); unless "
            + "the job names output.format, its extension picks the format")
    static let format = OptionSpec(
        "--format", kind: .choice(OutputFormat.names), placeholder: "NAME",
        help: "render in this format instead of the job's (" + OutputFormat.names.joined(separator: ", ")
            + "); -o must suit it; without -o the output gets its extension")
    static let gifMaxBytes = OptionSpec(
        "--gif-max-bytes", kind: .string, placeholder: "SIZE", default: .string("auto"),
        help: "GIF only: keep the file within SIZE bytes (1000000, 800k, 1M, 1Mi; auto: 1M for every "
            + "640×360 pixels of frame, at least 1M; none for no limit): "
            + "frames that would spend the budget faster than the video plays are left out, their time "
            + "given to the frame before, so motion gets choppier but every frame stays clean")
    static let cache = OptionSpec(
        "--cache", kind: .path, placeholder: "DIR",
        help: "segmented renders: take every piece whose frames did not change from this chunk cache, and "
            + "keep the pieces encoded there (kiln cache stats|prune|clear)")
    static let progress = OptionSpec(
        "--progress", kind: .choice(["auto", "bar", "json", "none"]), placeholder: "MODE",
        default: .string("auto"),
        help: "auto (a bar on a terminal, silent otherwise), bar, json (on stdout, one JSON object per frame "
            + "written, then {\"event\": \"done\"} with the output, its bytes and the timings) or none")
    static let spec = CommandSpec(
        "render", summary: "render a job to a video (H.264 MP4 by default), GIF, WebP or PNG sequence",
        description: """
            Renders every frame of JOB and encodes it in the job's output.format: by default with
            libx264 into an MP4 (yuv420p, BT.709, limited range, +faststart); also HEVC MP4 (libx265),
            VP9 WebM (libvpx), ProRes 4444 MOV with alpha (prores_ks), animated GIF (a palette per
            scene, within --gif-max-bytes), animated WebP (libwebp) or a folder of numbered PNGs. Without output.format the
            format follows the path's extension, -o's if given, else output.path's (.mp4 h264, .webm
            vp9, .mov prores4444, .gif, .webp, a path ending in / png-sequence; another extension keeps
            the job's format). --format NAME overrides both, and without -o the output gets NAME's
            extension. Only a format named by --format or output.format is refused for an -o whose
            extension names another (a usage error, exit 64). A crf or preset the job wrote for
            another encoder is left for the new format's defaults, and a soundtrack is left out of
            a format without sound, each with a note. With the job's `audio`, the file also gets an AAC track (Opus in WebM;
            48 kHz stereo) exactly as long as the video; GIF, WebP and PNG sequences refuse audio. The file appears at its final path only
            when complete; folders of its path that do not exist are created (as the queue's workers
            do), and each one created is named on stderr.

            H.264 videos of 60 s or more are rendered in segments of about 30 s (other formats are
            rendered in one piece, and --segments with them is a usage error): each is encoded on its own
            to a hidden file beside the output, then all are joined by stream copy (no re-encode)
            with the audio encoded once. An interrupted render (Ctrl-C, kill, crash) keeps its
            finished segments, and running the same command again renders only the rest. A changed
            job, range or Kiln version never reuses an old segment.

            Drafts render a job smaller or in part without editing it. --scale F (0.05…1) or
            --size WxH renders the same picture in fewer pixels: the job is laid out at its own size
            and mapped into the smaller frame, so every position, size, font, stroke, offset and
            blur scales together and the result looks like the full render made smaller. Both sides
            are rounded to the nearest even number of pixels (H.264 yuv420p needs even sides), and a
            --size must have the job's shape within 1 % (give one side, Wx or xH, to have the other
            follow it). --range A-B or --duration S renders part of the timeline: the first frame is
            the one the job shows at A, every frame has the time it has in the whole render, and
            the audio is cut to the same span and as long as the video. A range outside the job is
            a usage error (exit 64). Without -o a draft is written beside the job's output as
            NAME.draft.mp4, never over the full render; a draft's segments are keyed by its size
            and frames too, so drafts and full renders never reuse each other's segments.
            --frame-hashes numbers a draft's frames as the job's.
            """,
        options: [output, format, gifMaxBytes, .threads, progress]
            + OptionSpec.draftSize + OptionSpec.draftSpan
            + [.set, .segments, .segmentSeconds, .frameHashes, cache, .limit, .noClobber]
            + OptionSpec.localRoots,
        positionals: [.job],
        notes: """
            An output is never the job file, one of its inputs, the queue database ($KILN_QUEUE or the
            default), a device, FIFO, directory or symbolic link (exit 65, or 73 for -o).
            """)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let threads = args.int(.threads)
        guard let mode = ProgressMode(args.string(progress) ?? "auto") else {
            throw args.usageError("--progress expects auto, bar, json or none")
        }
        let request = try segmentRequest(args)
        let draft = try draftSettings(args)
        let variables = try variableSettings(args)
        let limits = try guardedLimitSettings(args)
        let rules = try PathOptions.localRules(args)
        // Before loading, so a signal while a large job loads is honoured like one while it renders.
        installInterruptHandlers()
        let loaded: FingerprintedJob
        do {
            loaded = try ExportSession.load(
                .file(args.positionals[0]),
                options: JobLoadOptions(variables: variables, limits: limits, pathRules: rules),
                cancellation: interruption)
        } catch {
            switch error {
            case .cancelled(let signal): return interruptedWhileLoading(signal)
            case .job(let loadError): return report(loadError)
            default:
                Output.error(error.description)
                return error.exitCode
            }
        }
        let formatted: FingerprintedJob
        switch OutputFormatChoice.choose(
            for: loaded.job.output, named: args.string(Self.format).flatMap(OutputFormat.init(rawValue:)),
            written: args.string(Self.output))
        {
        case .success(let choice):
            formatted = loaded.reformatted(as: choice.format, keepingPath: args.string(Self.output) != nil)
            for note in formatNotes(from: loaded.job, to: formatted.job) { Output.stderr(note) }
        case .failure(let mismatch):
            throw args.usageError(mismatch.message)
        }
        let drafted: FingerprintedJob
        do {
            drafted = try formatted.drafted(draft)
        } catch {
            throw args.usageError(error.message)
        }
        var job = drafted.job
        if let text = args.string(Self.gifMaxBytes), text != "none" {
            let area = Double(job.output.width * job.output.height) / (640 * 360)
            let automatic = text == "auto" ? Int(1_000_000 * max(1, area)) : nil
            guard let bytes = automatic ?? ByteCount.parse(text) else {
                throw args.usageError(
                    "--gif-max-bytes expects a positive number of bytes (1000000, 800k, 1M, 1Mi), auto or none, got '\(text)'"
                )
            }
            if job.output.format == .gif {
                job = job.limitingBytes(to: bytes)
            } else if args.isGiven(Self.gifMaxBytes) {
                throw args.usageError(
                    "--gif-max-bytes: only gif output has a byte budget; this render is \(job.output.format.rawValue)"
                )
            }
        }
        if let note = draftNote(job: loaded.job.output, draft: job.output, size: draft.size) {
            Output.stderr(note)
        }
        // A path --format renamed is checked below like an -o: the job's own path was checked at load.
        let renamed = job.output.path != loaded.job.output.path
        let output =
            args.string(Self.output).map { OutputLocation($0).url }
            ?? (draft == Draft()
                ? (renamed ? job.output.path : nil) : Draft.outputPath(besides: job.output.path))
        var session = ExportSession(
            job: job, fingerprint: drafted.fingerprint, output: output, threads: threads)
        if let problem = session.outputProblem(under: rules) {
            Output.error(problem)
            return ExitCode.cannotCreate
        }
        do {
            try session.logFrameHashes(at: args.string(.frameHashes))
        } catch {
            Output.error(error.description)
            return error.exitCode
        }
        if NoClobber.keeps(session.output, args) { return ExitCode.ok }
        do {
            try session.createOutputDirectory { Output.stderr("kiln: \($0)") }
        } catch {
            Output.error(error.description)
            return error.exitCode
        }
        let plan = try segmentPlan(for: session, request: request, args: args)
        let reporter = ProgressReporter(mode: mode)
        do throws(ExportError) {
            session.chunkCache = args.string(cache).map { ChunkCache(folder: URL(fileURLWithPath: $0)) }
            session.cacheWarning = { Output.stderr("kiln: warning: \($0)") }
            let summary = try session.run(
                plan: plan, cancellation: interruption, progress: { reporter.update($0) })
            let detail =
                summary.segments.map { segments in
                    ", \(segments) segments"
                        + (summary.reused > 0
                            ? ": \(summary.reused) reused, \(summary.rendered) rendered" : "")
                }
                ?? (summary.stillFramesReused > 0
                    ? "; \(summary.frames - summary.stillFramesReused) rendered, "
                        + "\(summary.stillFramesReused) still frames reused" : "")
            reporter.finish()
            reporter.done(
                output: summary.output, frames: summary.frames, seconds: summary.elapsedSeconds,
                segments: summary.segments)
            if mode != .json {
                Output.stderr(
                    "kiln: wrote \(summary.output.path) "
                        + WriteSummary(
                            videoSeconds: job.output.time(ofFrame: summary.frames), frames: summary.frames,
                            detail: detail, elapsedSeconds: summary.elapsedSeconds
                        ).text)
            }
            return ExitCode.ok
        } catch {
            reporter.finish()
            if case .cancelled = error, plan.isSegmented {
                Output.error(
                    "interrupted; finished segments are kept beside the output and reused by the next run")
            } else {
                Output.error(error.description)
            }
            return error.exitCode
        }
    }

    /// The session's plan, in one piece for a format that cannot be joined from segments: asked
    /// for segments, that is a usage error; a long video is rendered whole with a note.
    static func segmentPlan(for session: ExportSession, request: SegmentPlan.Request, args: ParsedArguments)
        throws -> SegmentPlan
    {
        let format = session.job.output.format.rawValue
        switch session.segmentChoice(request) {
        case .planned(let plan): return plan
        case .refused:
            throw args.usageError(
                "--segments/--segment-seconds: \(format) is rendered in one piece; only h264 "
                    + "output is rendered in segments (they are joined by MP4 stream copy)")
        case .onePiece(let plan):
            Output.stderr(
                "kiln: note: \(format) is rendered in one piece (only h264 is rendered in segments), "
                    + "so an interrupted render starts again")
            return plan
        }
    }

    /// What changing the job's format leaves behind: settings for another encoder, the soundtrack.
    static func formatNotes(from job: Job, to formatted: Job) -> [String] {
        let format = formatted.output.format
        guard format != job.output.format else { return [] }
        var notes: [String] = []
        let dropped = job.output.droppedSettings(as: format)
        if !dropped.isEmpty {
            notes.append(
                "kiln: note: the job's \(dropped.joined(separator: " and ")) \(dropped.count == 1 ? "is" : "are") "
                    + "for \(job.output.format.rawValue); \(format.rawValue) uses its own defaults")
        }
        if job.audio != nil, formatted.audio == nil {
            notes.append("kiln: note: \(format.rawValue) has no sound; the job's audio is left out")
        }
        return notes
    }

    static func interruptedWhileLoading(_ signal: Int32) -> Int32 {
        Output.error("interrupted while loading the job; no output was written")
        return 128 + signal
    }

    /// `--segments N` or `--segment-seconds S` (not both); automatic otherwise.
    static func segmentRequest(_ args: ParsedArguments) throws -> SegmentPlan.Request {
        let count = args.int(.segments)
        let seconds = args.double(.segmentSeconds)
        switch (count, seconds) {
        case (let count?, nil): return .count(count)
        case (nil, let seconds?):
            guard seconds > 0, seconds.isFinite else {
                throw args.usageError("--segment-seconds must be a positive number")
            }
            return .seconds(seconds)
        case (nil, nil): return .automatic
        case (.some, .some):
            throw args.usageError("give --segments or --segment-seconds, not both")
        }
    }
}
