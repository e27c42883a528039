import KilnCommandLine

/// `kiln cancel ID...` or `kiln cancel --all/--state/--batch`.
enum CancelCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "cancel", summary: "stop jobs",
        description: """
            Cancels a waiting job at once; a running job's worker sees the request within a second,
            stops the render and removes its temp file. Exit 65 if a job named by id has already
            ended.

            Many at once: several ids, --all (every waiting or running job), --state (only those
            states) or --batch N (the jobs queued together with job N); these may be combined.
            """,
        options: JobActionCommand.options(for: .cancel), positionals: [JobActionCommand.ids])

    static func run(_ args: ParsedArguments) throws -> Int32 { try JobActionCommand.run(.cancel, args) }
}
