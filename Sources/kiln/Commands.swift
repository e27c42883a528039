import Foundation
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

enum RenderCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(
            raw, command: "render",
            valued: ([
                "-o", "--output", "--threads", "--progress", "--set", "--segments", "--segment-seconds",
                "--frame-hashes", "--limit",
            ] as Set<String>).union(PathOptions.rootFlags))
        if args.flags.contains("--help") {
            print(Help.render)
            return ExitCode.ok
        }
        guard args.positionals.count == 1 else {
            throw UsageError(message: "render takes exactly one job file", command: "render")
        }
        let threads = try args.int("--threads", command: "render", range: 1...256)
        let mode = try ProgressMode(args.values["--progress"] ?? "auto")
        let request = try segmentRequest(args, command: "render")
        let variables = try variableSettings(args, command: "render")
        let limits = try limitSettings(args, command: "render")
        let rules = try PathOptions.localRules(args, command: "render")
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
        let output = (args.values["-o"] ?? args.values["--output"]).map { URL(fileURLWithPath: $0) }
        if let output, let problem = rules.outputProblem(output, jobFile: job.file, inputs: job.inputFiles) {
            Output.error(problem)
            return ExitCode.cannotCreate
        }
        let hashes: FrameHashLog?
        do {
            hashes = try args.values["--frame-hashes"].map { path throws(ExportError) in
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
    static func segmentRequest(_ args: Arguments, command: String) throws -> SegmentPlan.Request {
        let count = try args.int("--segments", command: command, range: 1...SegmentPlan.maximumSegments)
        let seconds = try args.double("--segment-seconds", command: command)
        switch (count, seconds) {
        case (let count?, nil): return .count(count)
        case (nil, let seconds?):
            guard seconds > 0, seconds.isFinite else {
                throw UsageError(message: "--segment-seconds must be a positive number", command: command)
            }
            return .seconds(seconds)
        case (nil, nil): return .automatic
        case (.some, .some):
            throw UsageError(message: "give --segments or --segment-seconds, not both", command: command)
        }
    }
}

enum PreviewCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(
            raw, command: "preview",
            valued: (["-o", "--output", "--threads", "--at", "--frame", "--set", "--limit"] as Set<String>)
                .union(PathOptions.rootFlags))
        if args.flags.contains("--help") {
            print(Help.preview)
            return ExitCode.ok
        }
        guard args.positionals.count == 1 else {
            throw UsageError(message: "preview takes exactly one job file", command: "preview")
        }
        guard let out = args.values["-o"] ?? args.values["--output"] else {
            throw UsageError(message: "preview needs -o OUT.png", command: "preview")
        }
        let at = try args.double("--at", command: "preview")
        let frameArg = try args.int("--frame", command: "preview", range: 0...Int(Int32.max))
        guard (at == nil) != (frameArg == nil) else {
            throw UsageError(
                message: "preview needs exactly one of --at SECONDS or --frame N", command: "preview")
        }
        let threads = try args.int("--threads", command: "preview", range: 1...256)
        let job: Job
        let rules = try PathOptions.localRules(args, command: "preview")
        switch loadJob(
            args.positionals[0], variables: try variableSettings(args, command: "preview"),
            limits: try limitSettings(args, command: "preview"), rules: rules)
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
                throw UsageError(
                    message: "--frame \(frame) is past the last frame (\(job.output.frameCount - 1))",
                    command: "preview")
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

enum ValidateCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(
            raw, command: "validate", valued: PathOptions.rootFlags.union(["--limit"]), boolean: ["--json"])
        if args.flags.contains("--help") {
            print(Help.validate)
            return ExitCode.ok
        }
        guard !args.positionals.isEmpty else {
            throw UsageError(message: "validate needs at least one job file", command: "validate")
        }
        let limits = try limitSettings(args, command: "validate")
        var worst = ExitCode.ok
        var results: [[String: Any]] = []
        let rules = try PathOptions.localRules(args, command: "validate")
        for path in args.positionals {
            switch loadJob(path, limits: limits, rules: rules) {
            case .success(let job):
                if !args.flags.contains("--json") {
                    Output.line(
                        "\(path): ok (\(job.output.width)×\(job.output.height), \(job.output.frameRate) fps, "
                            + "\(job.output.frameCount) frames, \(job.layers.count) layers"
                            + (job.audio.map { ", audio \($0.path.lastPathComponent)" } ?? "") + ")")
                }
                results.append(["file": path, "valid": true, "errors": [Any]()])
            case .failure(let error):
                worst = max(worst, error.exitCode)
                if args.flags.contains("--json") {
                    results.append(["file": path, "valid": false, "errors": jsonErrors(error, file: path)])
                } else {
                    _ = report(error)
                }
            }
        }
        if args.flags.contains("--json") {
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
enum LimitsCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: "limits", valued: ["--limit"], boolean: ["--json"])
        if args.flags.contains("--help") {
            print(Help.limits)
            return ExitCode.ok
        }
        guard args.positionals.isEmpty else {
            throw UsageError(message: "limits takes no arguments", command: "limits")
        }
        let limits = try limitSettings(args, command: "limits")
        if args.flags.contains("--json") {
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

enum LayersCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: "layers", valued: [], boolean: ["--json"])
        if args.flags.contains("--help") {
            print(Help.layers)
            return ExitCode.ok
        }
        if args.flags.contains("--json") {
            try printJSON(RegistryListing.json)
        } else {
            print(RegistryListing.text)
        }
        return ExitCode.ok
    }
}
