import KilnCommandLine

/// A small program with every kind of option, a repeatable one, a short name, positionals of
/// each count and a command with subcommands.
enum SampleProgram {
    static let threads = OptionSpec("--threads", short: "t", kind: .int(1...8), help: "worker threads")
    static let seconds = OptionSpec("--at", kind: .double(minimum: 0), placeholder: "SECONDS", help: "a time")
    static let mode = OptionSpec(
        "--mode", kind: .choice(["fast", "slow"]), default: .string("fast"), help: "how to go")
    static let output = OptionSpec("--output", short: "o", kind: .path, help: "where to write")
    static let tag = OptionSpec("--tag", kind: .string, repeatable: true, help: "a label (repeatable)")
    static let json = OptionSpec.flag("--json", help: "print JSON")

    static let bake = CommandSpec(
        "bake", summary: "bake a job", description: "Bakes JOB.",
        options: [threads, seconds, mode, output, tag, json],
        positionals: [PositionalSpec("JOB", kind: .path, help: "the job")])
    static let list = CommandSpec(
        "list", summary: "list jobs", options: [json],
        positionals: [PositionalSpec("ID", kind: .int(0...99), count: .optional, help: "one job")])
    static let check = CommandSpec(
        "check", summary: "check jobs",
        positionals: [PositionalSpec("JOB", kind: .path, count: .oneOrMore, help: "job files")])
    static let plan = CommandSpec(
        "plan", summary: "plans",
        subcommands: [
            CommandSpec(
                "add", summary: "add a plan", options: [mode],
                positionals: [PositionalSpec("NAME", help: "its name")]),
            CommandSpec(
                "remove", summary: "remove a plan", positionals: [PositionalSpec("NAME", help: "its name")]),
        ])

    static let program = CommandLineProgram(
        name: "oven", summary: "bakes things", commands: [bake, list, check, plan],
        overview: "Exit codes: 0 ok, 64 usage.")

    static func parse(_ spec: CommandSpec, _ args: [String]) throws -> ParsedArguments {
        try CommandLineParser.parse(args, spec: spec, command: spec.name)
    }

    /// The usage error a command line raises (nil when it parses).
    static func usageError(_ spec: CommandSpec, _ args: [String]) -> UsageError? {
        do {
            _ = try parse(spec, args)
            return nil
        } catch {
            return error as? UsageError
        }
    }
}
