import Foundation
import KilnCommandLine
import KilnExport
import KilnMedia
import KilnModel

/// `kiln sheet JOB -o sheet.png`: a contact sheet of the job's frames.
enum SheetCommand: KilnSubcommand {
    static let every = OptionSpec(
        "--every", kind: .double(minimum: 0.001), placeholder: "SECONDS",
        help: "a frame every S seconds from 0")
    static let count = OptionSpec(
        "--count", kind: .int(1...ContactSheet.maximumCells), placeholder: "N",
        help: "N frames from the first to the last, evenly spaced (default 12)")
    static let spec = CommandSpec(
        "sheet", summary: "a contact sheet: a grid of a job's frames with their times",
        description: """
            Renders frames of JOB at regular times (several at once) and lays them out in a grid
            under a title, each with its time and frame number. Each cell is the frame `kiln
            preview` writes (the video's pixels before YUV conversion), shrunk to --width by area
            averaging: exactly those pixels when --width is the job's width. The format follows -o's
            extension, as for preview.
            """,
        options: [
            every, count, StillOutput.columns, StillOutput.width, StillOutput.output, .threads, .set, .limit,
            .noClobber,
        ]
            + OptionSpec.localRoots,
        positionals: [.job])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let explicit = try StillOutput.target(args)
        let spacing: ContactSheet.Spacing
        switch (args.double(every), args.int(count)) {
        case (let seconds?, nil): spacing = .every(seconds)
        case (nil, let number?): spacing = .count(number)
        case (nil, nil): spacing = .count(12)
        case (.some, .some): throw args.usageError("give --every or --count, not both")
        }
        let rules = try PathOptions.localRules(args)
        let job: Job
        switch try StillOutput.job(args, rules: rules) {
        case .success(let loaded): job = loaded
        case .failure(let error): return report(error)
        }
        let target = explicit ?? (StillOutput.besideOutput(of: job, showing: "sheet"), ImageFormat.png)
        let session = ExportSession(stillOf: job, output: target.url, threads: args.int(.threads))
        if let problem = session.outputProblem(under: rules) {
            Output.error(problem)
            return ExitCode.cannotCreate
        }
        if NoClobber.keeps(target.url, args) { return ExitCode.ok }
        let sheet = session.contactSheet
        guard let frames = sheet.frames(spacing) else {
            throw args.usageError(
                "that is more than \(ContactSheet.maximumCells) frames for a \(StillOutput.seconds(job.output.durationSeconds)) "
                    + "job; use a larger --every or a smaller --count")
        }
        let o = job.output
        let spacingText: String
        switch spacing {
        case .every(let seconds): spacingText = "every \(StillOutput.seconds(seconds))"
        case .count: spacingText = "\(frames.count) frames"
        }
        let title =
            "\(URL(fileURLWithPath: job.file).lastPathComponent)  ·  \(o.width)x\(o.height), "
            + "\(String(format: "%g", o.frameRate.doubleValue)) fps, \(StillOutput.seconds(o.durationSeconds))  ·  \(spacingText)"
        let columns = frames.count <= 4 ? frames.count : frames.count <= 9 ? 3 : frames.count <= 16 ? 4 : 5
        let grid = try StillOutput.grid(args, job: job, cells: frames.count, columns: columns, title: title)
        if let problem = session.memoryProblem(grid: grid, cells: frames.count) {
            Output.error(problem)
            return ExitCode.dataError
        }
        return StillOutput.write(
            { () throws(ExportError) in try sheet.render(frames: frames, grid: grid) }, with: session,
            as: target.format)
    }
}
