import Foundation
import KilnCommandLine
import KilnExport
import KilnModel
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

/// Set by SIGINT/SIGTERM; the pipeline polls it once per frame, cleans up and exits 128+signal.
let interruption = CancellationFlag()

func installInterruptHandlers() {
    _ = interruption.cancelledBySignal  // initialise the global before a handler can touch it
    for sig in [SIGINT, SIGTERM] {
        signal(sig) { number in
            interruption.cancel(signal: number)
            // A second signal ends the process at once.
            signal(number, SIG_DFL)
        }
    }
}

enum RenderCommand: KilnSubcommand {
    static let output = OptionSpec(
        "--output", short: "o", kind: .path, help: "output file (default: the job's output.path)")
    static let progress = OptionSpec(
        "--progress", kind: .choice(["auto", "bar", "json", "none"]), placeholder: "MODE",
        default: .string("auto"),
        help: "auto (a bar on a terminal, silent otherwise), bar, json (one JSON object per frame on stdout) "
            + "or none")
    static let spec = CommandSpec(
        "render", summary: "render a job to an H.264 MP4 (BT.709, yuv420p)",
        description: """
            Renders every frame of JOB and encodes it with libx264 into an MP4 (yuv420p, BT.709,
            limited range, +faststart). With the job's `audio`, the file also gets an AAC track
            (48 kHz stereo) exactly as long as the video. The file appears at its final path only
            when complete.

            Videos of 60 s or more are rendered in segments of about 30 s: each is encoded on its own
            to a hidden file beside the output, then all are joined by stream copy (no re-encode)
            with the audio encoded once. An interrupted render (Ctrl-C, kill, crash) keeps its
            finished segments, and running the same command again renders only the rest. A changed
            job, range or Kiln version never reuses an old segment.
            """,
        options: [output, .threads, progress, .set, .segments, .segmentSeconds, .frameHashes, .limit]
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
        let variables = try variableSettings(args)
        let limits = try limitSettings(args)
        let rules = try PathOptions.localRules(args)
        // Before loading, so a signal while a large job loads is honoured like one while it renders.
        installInterruptHandlers()
        let loaded: FingerprintedJob
        do {
            loaded = try JobFiles.loadFingerprinted(
                file: args.positionals[0],
                options: JobLoadOptions(variables: variables, limits: limits, pathRules: rules),
                cancellation: interruption)
        } catch {
            if let signal = interruption.cancelledBySignal { return interruptedWhileLoading(signal) }
            return report(error)
        }
        if let signal = interruption.cancelledBySignal { return interruptedWhileLoading(signal) }
        let job = loaded.job
        let output = args.string(Self.output).map { URL(fileURLWithPath: $0) }
        if let output, let problem = rules.outputProblem(output, jobFile: job.file, inputs: job.inputFiles) {
            Output.error(problem)
            return ExitCode.cannotCreate
        }
        let hashes: FrameHashLog?
        do {
            hashes = try args.string(.frameHashes).map { path throws(ExportError) in
                try FrameHashLog(path: path)
            }
        } catch {
            Output.error(error.description)
            return error.exitCode
        }
        let export = VideoExport(job: job, output: output, threads: threads, frameHashes: hashes)
        let plan = SegmentPlan(
            frameCount: job.output.frameCount, framesPerSecond: job.output.frameRate.doubleValue,
            request: request)
        let reporter = ProgressReporter(mode: mode)
        do throws(ExportError) {
            let written: URL, frames: Int, seconds: Double
            var detail = ""
            if plan.isSegmented {
                let segmented = SegmentedExport(export: export, fingerprint: loaded.fingerprint, plan: plan)
                segmented.removeStaleTemporaries { _ in }
                let summary = try segmented.run(cancellation: interruption) { reporter.update($0) }
                (written, frames, seconds) = (summary.output, summary.frames, summary.elapsedSeconds)
                detail =
                    ", \(summary.segments) segments"
                    + (summary.reused > 0 ? ": \(summary.reused) reused, \(summary.rendered) rendered" : "")
            } else {
                StaleTemporaryFiles.remove(besides: export.output) { _ in }
                let summary = try export.run(cancellation: interruption) { reporter.update($0) }
                (written, frames, seconds) = (summary.output, summary.frames, summary.elapsedSeconds)
            }
            reporter.finish()
            if mode != .json {
                Output.stderr(
                    "kiln: wrote \(written.path) (\(frames) frames\(detail), "
                        + String(format: "%.1f s)", seconds))
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

enum PreviewCommand: KilnSubcommand {
    static let output = OptionSpec("--output", short: "o", kind: .path, help: "output PNG (required)")
    static let at = OptionSpec(
        "--at", kind: .double(minimum: 0), placeholder: "SECONDS",
        help: "the frame shown at this time (the last frame starting at or before it)")
    static let frame = OptionSpec("--frame", kind: .int(0...Int(Int32.max)), help: "frame index, 0-based")
    static let spec = CommandSpec(
        "preview", summary: "render one frame to a PNG (--at SECONDS or --frame N, -o OUT.png)",
        description: "Renders one frame to a PNG: the same pixels the video gets before YUV conversion.",
        options: [at, frame, output, .threads, .set, .limit] + OptionSpec.localRoots, positionals: [.job])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        guard let out = args.string(output) else {
            throw args.usageError("preview needs -o OUT.png")
        }
        let at = args.double(Self.at)
        let frameArg = args.int(frame)
        guard (at == nil) != (frameArg == nil) else {
            throw args.usageError("preview needs exactly one of --at SECONDS or --frame N")
        }
        let threads = args.int(.threads)
        let job: Job
        let rules = try PathOptions.localRules(args)
        switch loadJob(
            args.positionals[0], variables: try variableSettings(args), limits: try limitSettings(args),
            rules: rules)
        {
        case .success(let loaded): job = loaded
        case .failure(let error): return report(error)
        }
        if let problem = rules.outputProblem(
            URL(fileURLWithPath: out), jobFile: job.file, inputs: job.inputFiles)
        {
            Output.error(problem)
            return ExitCode.cannotCreate
        }
        let preview = FramePreview(job: job, threads: threads)
        let frame: Int
        if let at {
            frame = preview.frameIndex(atSeconds: at)
        } else {
            frame = frameArg!
            guard frame < job.output.frameCount else {
                throw args.usageError(
                    "--frame \(frame) is past the last frame (\(job.output.frameCount - 1))")
            }
        }
        do {
            try preview.writePNG(frame: frame, to: URL(fileURLWithPath: out))
            return ExitCode.ok
        } catch {
            Output.error(error.description)
            return error.exitCode
        }
    }
}

enum ValidateCommand: KilnSubcommand {
    static let json = OptionSpec.flag(
        "--json", help: "print one JSON array with {file, valid, errors: [{path, line, column, message}]}")
    static let spec = CommandSpec(
        "validate", summary: "check job files and report every problem",
        description: """
            Checks job files and reports every problem at once, each with the file, line:column and
            the JSON path. Exit 0 when all are valid, 65 when one is invalid, 66 when one is missing.
            """,
        options: [json, .limit] + OptionSpec.localRoots, positionals: [.jobs])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let limits = try limitSettings(args)
        var worst = ExitCode.ok
        var results: [[String: Any]] = []
        let rules = try PathOptions.localRules(args)
        for path in args.positionals {
            switch loadJob(path, limits: limits, rules: rules) {
            case .success(let job):
                if !args.flag(json) {
                    Output.line(
                        "\(path): ok (\(job.output.width)×\(job.output.height), \(job.output.frameRate) fps, "
                            + "\(job.output.frameCount) frames, \(job.layers.count) layers"
                            + (job.audio.map { ", audio \($0.path.lastPathComponent)" } ?? "") + ")")
                }
                results.append(["file": path, "valid": true, "errors": [Any]()])
            case .failure(let error):
                worst = max(worst, error.exitCode)
                if args.flag(json) {
                    results.append(["file": path, "valid": false, "errors": jsonErrors(error, file: path)])
                } else {
                    _ = report(error)
                }
            }
        }
        if args.flag(json) {
            let data = try JSONSerialization.data(withJSONObject: results, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
        return worst
    }

    static func jsonErrors(_ error: JobLoadError, file: String) -> [[String: Any]] {
        switch error {
        case .fileMissing(_, let reason):
            return [["path": "$", "message": reason]]
        case .invalid(let diagnostics):
            return diagnostics.map { d in
                var entry: [String: Any] = ["path": d.path.description, "message": d.message]
                if let loc = d.location {
                    entry["line"] = loc.line
                    entry["column"] = loc.column
                }
                return entry
            }
        }
    }
}

/// `kiln limits`: every resource limit with its value (the defaults, or as `--limit` sets them).
enum LimitsCommand: KilnSubcommand {
    static let json = OptionSpec.flag("--json", help: "one JSON array of {name, value, default, summary}")
    static let spec = CommandSpec(
        "limits", summary: "list the resource limits, their defaults and what they bound",
        description: """
            Lists every resource limit: its name, its value (the default, or as the configuration
            file's "limits" object or --limit sets it) and what it bounds. Each is checked before the
            memory it bounds is allocated; a job over one is refused with exit 65 and a message naming
            the limit, its value and the maximum. render, preview, validate, enqueue and worker take
            --limit NAME=VALUE (repeatable). See docs/security.md.
            """,
        options: [json, .limit])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let limits = try limitSettings(args)
        if args.flag(json) {
            let entries: [[String: Any]] = ResourceLimits.Name.allCases.map { name in
                [
                    "name": name.rawValue, "value": limits[name], "default": name.defaultValue,
                    "summary": name.summary,
                ]
            }
            let data = try JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return ExitCode.ok
        }
        let width = ResourceLimits.Name.allCases.map(\.rawValue.count).max() ?? 0
        let values = ResourceLimits.Name.allCases.map { ResourceLimits.text(limits[$0]) }
        let valueWidth = values.map(\.count).max() ?? 0
        for (name, value) in zip(ResourceLimits.Name.allCases, values) {
            let padded = name.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
            let shown = String(repeating: " ", count: valueWidth - value.count) + value
            print("\(padded)  \(shown)  \(name.summary)")
        }
        return ExitCode.ok
    }
}

enum LayersCommand: KilnSubcommand {
    static let json = OptionSpec.flag(
        "--json", help: "one JSON object of layers, transform, effects and transitions")
    static let spec = CommandSpec(
        "layers", summary: "list layer kinds, transform keys, effects and transitions with their parameters",
        description: """
            Lists every layer kind, the transform keys every layer takes, every effect and every
            transition, each parameter with its type, range, default and a line of help.
            """,
        options: [json])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        if args.flag(json) {
            try printJSON(RegistryListing.json)
        } else {
            print(RegistryListing.text)
        }
        return ExitCode.ok
    }
}
