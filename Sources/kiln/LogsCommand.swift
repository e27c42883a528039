import Foundation
import KilnCommandLine

enum LogsCommand: KilnSubcommand {
    static let follow = OptionSpec.flag(
        "--follow", short: "f",
        help: "keep printing the job's events as they happen, until it ends (or Ctrl-C)")
    static let spec = CommandSpec(
        "logs", summary: "what happened to a job, attempt by attempt",
        description: """
            Prints what happened to a job: enqueued, each attempt's claim and its end (completed,
            failed with the error, crashed, returned), cancel and retry requests. With -f, waits for
            new events (checked twice a second) and exits when the job has ended.
            """,
        options: [follow, .queue], positionals: [.jobID])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let id = try jobID(args)
        let store = try QueueLocation.open(try QueueLocation.databasePath(args))
        guard try store.job(id: id) != nil else {
            Output.error("no job \(id) in the queue")
            return ExitCode.noInput
        }
        var printed = 0
        func printNew() throws {
            let events = try store.events(jobID: id)
            for event in events.dropFirst(printed) {
                Output.line("\(StatusCommand.iso(event.at))  \(event.message)")
            }
            printed = max(printed, events.count)
        }
        try printNew()
        guard args.flag(follow) else { return ExitCode.ok }
        installInterruptHandlers()
        while interruption.cancelledBySignal == nil {
            // Read before the events, so the events that ended the job are printed before exiting.
            let ended = try store.job(id: id)?.state.isTerminal ?? true
            try printNew()
            if ended { return ExitCode.ok }
            Thread.sleep(forTimeInterval: 0.5)
        }
        return 128 + (interruption.cancelledBySignal ?? 0)
    }
}
