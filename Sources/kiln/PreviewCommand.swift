import Foundation
import KilnCommandLine
import KilnExport
import KilnModel

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
