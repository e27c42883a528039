import Foundation
import KilnCommandLine
import KilnExport
import KilnMedia
import KilnModel

enum PreviewCommand: KilnSubcommand {
    static let output = OptionSpec(
        "--output", short: "o", kind: .path,
        help: "the still image: .png, .jpg, .jpeg or .webp, in any case (default: NAME.frame-N.png beside "
            + "the job's output)")
    static let at = OptionSpec(
        "--at", kind: .double(minimum: 0), placeholder: "SECONDS",
        help: "the frame shown at this time (the last frame starting at or before it), before the job's end")
    static let frame = OptionSpec("--frame", kind: .int(0...Int(Int32.max)), help: "frame index, 0-based")
    static let spec = CommandSpec(
        "preview",
        summary: "render one frame to a PNG, JPEG or WebP by -o's extension (--at SECONDS or --frame N)",
        description: """
            Renders one frame to a still image: the same pixels the video gets before YUV conversion.
            The format follows -o's extension, in any case: .png (lossless), .webp (lossless WebP: the
            same pixels as the PNG) or .jpg/.jpeg (baseline JFIF JPEG: full-range BT.601 YCbCr, 4:4:4
            chroma, quantiser scale 2; close to the PNG, flat colour within a few code values, but not
            exact at sharp edges). Any other extension, or none, is refused (exit 64). --at must be
            before the job's end (its duration, frames / fps) and --frame below its frame count.
            --scale F or --size WxH renders the frame as a draft, the same picture in fewer pixels
            (as `kiln render` does).
            """,
        options: [at, frame, output] + OptionSpec.draftSize + [.threads, .set, .limit, .noClobber]
            + OptionSpec.localRoots,
        positionals: [.job])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let explicit = try StillOutput.target(args)
        let at = args.double(Self.at)
        let frameArg = args.int(frame)
        guard (at == nil) != (frameArg == nil) else {
            throw args.usageError("preview needs exactly one of --at SECONDS or --frame N")
        }
        let threads = args.int(.threads)
        let draft = try draftSettings(args)
        let job: Job
        let rules = try PathOptions.localRules(args)
        switch try StillOutput.job(args, rules: rules) {
        case .success(let loaded):
            do {
                job = try loaded.drafted(draft)
            } catch {
                throw args.usageError(error.message)
            }
        case .failure(let error): return report(error)
        }
        let frame: Int
        let lastFrame = job.output.frameCount - 1
        if let at {
            guard let index = FramePreview(job: job).frameIndex(atSeconds: at) else {
                throw args.usageError(
                    "--at \(OptionValue.double(at).text) is at or past the end of the job: it lasts "
                        + "\(secondsText(job.output.durationSeconds)) s (\(job.output.frameCount) frames), "
                        + "and its last frame (\(lastFrame)) starts at "
                        + "\(secondsText(job.output.time(ofFrame: lastFrame))) s")
            }
            frame = index
        } else {
            frame = frameArg!
            guard frame <= lastFrame else {
                throw args.usageError("--frame \(frame) is past the last frame (\(lastFrame))")
            }
        }
        let (outURL, format) =
            explicit ?? (StillOutput.besideOutput(of: job, showing: "frame-\(frame)"), ImageFormat.png)
        if let missing = StillImageEncoder.missingEncoder(for: format) {
            Output.error("cannot write \(outURL.path): \(missing)")
            return ExitCode.unavailable
        }
        let session = ExportSession(stillOf: job, output: outURL, threads: threads)
        if let problem = session.outputProblem(under: rules) {
            Output.error(problem)
            return ExitCode.cannotCreate
        }
        if NoClobber.keeps(outURL, args) { return ExitCode.ok }
        do {
            // Missing folders are created, as `render` creates them.
            try session.createOutputDirectory { Output.stderr("kiln: \($0)") }
            try session.preview.writeStill(frame: frame, as: format, to: outURL)
            Output.stderr(
                "kiln: wrote \(outURL.path) (frame \(frame) at \(secondsText(job.output.timelineTime(ofFrame: frame))) s, "
                    + "\(job.output.width)×\(job.output.height))")
            return ExitCode.ok
        } catch {
            Output.error(error.description)
            return error.exitCode
        }
    }
}
