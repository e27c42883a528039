import KilnCommandLine

/// `kiln retry ID...` or `kiln retry --all/--state/--batch`.
enum RetryCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "retry", summary: "queue ended jobs again",
        description: """
            Queues an ended (or retryable) job again now, with a fresh set of attempts; a split job
            keeps its completed segments. Exit 65 if a job named by id is waiting or running.

            Many at once: several ids, --all (every failed, discarded or cancelled job; completed
            ones only with --state completed), --state or --batch N (the jobs queued together with
            job N); these may be combined.
            """,
        options: JobActionCommand.options(for: .retry), positionals: [JobActionCommand.ids])

    static func run(_ args: ParsedArguments) throws -> Int32 { try JobActionCommand.run(.retry, args) }
}
