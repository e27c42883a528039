import KilnCommandLine
import KilnWorker

/// A worker's render process (QueueWorker, AttemptProcess): not for direct use.
enum RenderAttemptCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "__render-attempt", summary: "a worker's render process (run by kiln worker only)", hidden: true)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        installInterruptHandlers()
        return RenderAttemptProcess.serve(flag: interruption)
    }
}
