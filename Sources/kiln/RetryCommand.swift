import KilnCommandLine

/// `kiln retry ID`.
enum RetryCommand: KilnSubcommand {
    static let spec = CommandSpec(
        "retry", summary: "queue an ended job again",
        description: "Queues an ended (or retryable) job again now, with a fresh set of attempts.",
        options: [.queue], positionals: [.jobID])

    static func run(_ args: ParsedArguments) throws -> Int32 { try JobActionCommand.run("retry", args) }
}
