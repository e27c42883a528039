import KilnCommandLine

/// What `kiln cancel` and `kiln retry` share.
enum JobActionCommand {
    static func run(_ action: String, _ args: ParsedArguments) throws -> Int32 {
        let id = try jobID(args)
        let store = try QueueLocation.open(try QueueLocation.databasePath(args))
        guard let job = try store.job(id: id) else {
            Output.error("no job \(id) in the queue")
            return ExitCode.noInput
        }
        let changed = action == "cancel" ? try store.cancel(id: id) : try store.retry(id: id)
        guard changed else {
            Output.error("job \(id) is \(job.state.rawValue); nothing to \(action)")
            return ExitCode.dataError
        }
        let now = try store.job(id: id)
        Output.stderr(
            "kiln: job \(id) "
                + (now?.state == .running
                    ? "will stop within a second" : "is \(now?.state.rawValue ?? "gone")"))
        return ExitCode.ok
    }
}
