import KilnCommandLine

/// `kiln cancel ID`.
enum CancelCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "cancel", summary: "stop a job",
        description: """
            Cancels a waiting job at once; a running job's worker sees the request within a second,
            stops the render and removes its temp file. Exit 65 if the job has already ended.
            """,
        options: [.queue], positionals: [.jobID])

    static func run(_ args: ParsedArguments) throws -> Int32 { try JobActionCommand.run("cancel", args) }
}
