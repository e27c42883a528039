import KilnCommandLine

enum LogsCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "logs", summary: "what happened to a job, attempt by attempt",
        description: """
            Prints what happened to a job: enqueued, each attempt's claim and its end (completed,
            failed with the error, crashed, returned), cancel and retry requests.
            """,
        options: [.queue], positionals: [.jobID])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let id = try jobID(args)
        let store = try QueueLocation.open(try QueueLocation.databasePath(args))
        guard try store.job(id: id) != nil else {
            Output.error("no job \(id) in the queue")
            return ExitCode.noInput
        }
        for event in try store.events(jobID: id) {
            Output.line("\(StatusCommand.iso(event.at))  \(event.message)")
        }
        return ExitCode.ok
    }
}
