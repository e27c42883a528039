import Foundation
import KilnCommandLine
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster

/// `kiln sweep JOB --vary PATH=v1,v2 --at T -o grid.png`: one labelled cell per combination.
enum SweepCommand: KilnSubcommand {
    static let vary = OptionSpec(
        "--vary", kind: .string, placeholder: "PATH=V1,V2,…", repeatable: true,
        help: "values for the value at a JSON path, as validation errors print paths "
            + "(layers[2].effects[0].ripple.amplitude=4,8,16); repeatable: every combination gets a cell")
    static let at = OptionSpec(
        "--at", kind: .double(minimum: 0), placeholder: "SECONDS", help: "the time shown in every cell")
    static let times = OptionSpec(
        "--times", kind: .string, placeholder: "T1,T2,…",
        help: "several times: a row of cells per combination")
    static let spec = CommandSpec(
        "sweep", summary: "a grid of one frame per combination of parameter values, labelled",
        description: """
            Renders JOB once per combination of the --vary values, each a copy of the job with the
            values written at their paths, and lays the frames out labelled with their values, to
            choose settings by eye. Each value is JSON when it reads as JSON (12, true, "a,b",
            [0.5, 0.5]) and a string otherwise (#ff5a36); commas inside brackets or quotes do not
            split. A path must exist in the job up to its last key, which may be a parameter the
            job leaves at its default. Every combination is validated before anything renders:
            a path that does not exist is a usage error (64) naming it, a value validation refuses
            exits 65 naming the combination and the path. Cells are rendered as by `kiln sheet`.
            """,
        options: [
            vary, at, times, StillOutput.columns, StillOutput.width, StillOutput.output, .threads, .set,
            .limit,
        ] + OptionSpec.localRoots,
        positionals: [.job])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let explicit = try StillOutput.target(args)
        let texts = args.strings(vary)
        guard !texts.isEmpty else { throw args.usageError("sweep needs at least one --vary PATH=v1,v2,…") }
        let sweep: ParameterSweep
        do {
            sweep = ParameterSweep(
                variations: try texts.map { text throws(ParameterSweep.Problem) in
                    try ParameterSweep.variation(text)
                })
        } catch {
            throw args.usageError(error.description)
        }
        guard sweep.combinationCount <= Double(ParameterSweep.maximumCombinations) else {
            throw args.usageError(
                "\(Int(min(sweep.combinationCount, 1e15))) combinations; at most \(ParameterSweep.maximumCombinations)"
            )
        }
        let seconds = try requestedTimes(args)
        let file = args.positionals[0]
        let options = JobLoadOptions(
            variables: try variableSettings(args), limits: try guardedLimitSettings(args),
            pathRules: try PathOptions.localRules(args))
        let base: Job
        do {
            base = try ExportSession.loadForStills(file: file, options: options)
        } catch {
            return report(error)
        }
        let target = explicit ?? (StillOutput.besideOutput(of: base, showing: "sweep"), ImageFormat.png)
        let session = ExportSession(stillOf: base, output: target.url, threads: args.int(.threads))
        if let problem = session.outputProblem(under: options.pathRules) {
            Output.error(problem)
            return ExitCode.cannotCreate
        }
        let frames = try seconds.map { time in
            guard let frame = session.preview.frameIndex(atSeconds: time) else {
                throw args.usageError(
                    "--at/--times \(String(format: "%g", time)) is at or past the end of the job "
                        + "(\(StillOutput.seconds(base.output.durationSeconds)))")
            }
            return frame
        }
        let cellCount = Double(frames.count) * sweep.combinationCount
        guard cellCount <= Double(ContactSheet.maximumCells) else {
            throw args.usageError("\(Int(cellCount)) cells; at most \(ContactSheet.maximumCells)")
        }
        // Every combination's document, then each validated, before any frame is rendered.
        let bytes: [UInt8]
        do {
            bytes = try JobLoader.readBytes(file: file, limits: options.limits)
        } catch {
            return report(error)
        }
        let combinations = sweep.combinations
        var documents: [[UInt8]] = []
        for combination in combinations {
            do {
                documents.append(try sweep.document(bytes, combination: combination))
            } catch {
                throw args.usageError(error.description)
            }
        }
        let directory = URL(fileURLWithPath: base.file).deletingLastPathComponent()
        let varied = documents
        var worst = ExitCode.ok
        for (combination, document) in zip(combinations, documents) {
            do {
                _ = try JobFiles.decode(
                    bytes: document, file: base.file, baseDirectory: directory, options: options)
            } catch {
                Output.stderr("kiln: with \(sweep.caption(combination)):")
                worst = max(worst, report(withoutLocations(error)))
            }
        }
        guard worst == ExitCode.ok else { return worst }

        let columns =
            args.int(StillOutput.columns)
            ?? (frames.count > 1
                ? frames.count
                : sweep.variations.count == 2
                    ? sweep.variations[1].values.count
                    : combinations.count <= 6
                        ? combinations.count : Int(Double(combinations.count).squareRoot().rounded(.up)))
        let counts = sweep.variations.map { "\(ParameterSweep.shortName($0.path)) (\($0.values.count))" }
        let title =
            "\(URL(fileURLWithPath: base.file).lastPathComponent)  ·  "
            + (frames.count == 1 ? "at \(StillOutput.seconds(seconds[0]))  ·  " : "")
            + "varying " + counts.joined(separator: " × ")
        let grid = try StillOutput.grid(
            args, job: base, cells: combinations.count * frames.count, columns: columns, title: title)
        if let problem = session.memoryProblem(grid: grid, cells: combinations.count * frames.count) {
            Output.error(problem)
            return ExitCode.dataError
        }
        return StillOutput.write(
            { () throws(ExportError) -> RGBA8Frame in
                try sweep.render(
                    documents: varied, file: base.file, options: options, frames: frames,
                    timeLabels: seconds.map { StillOutput.seconds($0) }, grid: grid, threads: session.threads)
            }, with: session, as: target.format)
    }

    /// A varied document is written anew, so its lines and columns are not the file's; the paths
    /// say where.
    static func withoutLocations(_ error: JobLoadError) -> JobLoadError {
        guard case .invalid(let diagnostics) = error else { return error }
        return .invalid(
            diagnostics.map {
                Diagnostic(
                    file: $0.file, path: $0.path, location: nil, message: $0.message,
                    isMissingInput: $0.isMissingInput)
            })
    }

    static func requestedTimes(_ args: ParsedArguments) throws -> [Double] {
        switch (args.double(at), args.string(times)) {
        case (let time?, nil): return [time]
        case (nil, let list?):
            let values = list.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard !values.isEmpty, values.allSatisfy({ $0 != nil && $0! >= 0 && $0!.isFinite }) else {
                throw args.usageError(
                    "--times expects seconds separated by commas (0.5,1,2.25), got '\(list)'")
            }
            return values.map { $0! }
        case (nil, nil): throw args.usageError("sweep needs --at SECONDS or --times T1,T2,…")
        case (.some, .some): throw args.usageError("give --at or --times, not both")
        }
    }
}
