import KilnCommandLine

// Every `kiln` command, described once. Parsing, `kiln COMMAND --help`, `kiln --help`, the
// completion scripts (`kiln completion bash|zsh|fish`) and the man page (`kiln help --man`,
// checked in as docs/kiln.1) are all made from these descriptions.
//
// Adding a command:
//   1. Write `enum FooCommand: KilnSubcommand` with `static let spec = CommandSpec("foo", summary:
//      …, options: [...], positionals: [...])` (shared options such as `.threads`, `.set`, `.limit`
//      and `.queue` are in SharedOptions.swift) and `static func run(_ args: ParsedArguments)`,
//      which reads typed values (`args.int(.threads)`, `args.flag(option)`) and calls the libraries.
//   2. Add `FooCommand.self` to `CommandCatalog.commands` below.
//   3. Regenerate the man page: `kiln help --man > docs/kiln.1` (a test fails while it is stale).
// The description tests (every option documented and round-tripping) then cover it by themselves.

enum CommandCatalog {
    static let commands: [any KilnSubcommand.Type] = [
        RenderCommand.self, PreviewCommand.self, SheetCommand.self, SweepCommand.self, ReviewCommand.self,
        StudioCommand.self,
        ValidateCommand.self,
        LayersCommand.self,
        SymbolsCommand.self,
        ZoomPlanCommand.self,
        LimitsCommand.self,
        DocsCommand.self, SchemaCommand.self,
        EnqueueCommand.self, WorkerCommand.self, StatusCommand.self, LogsCommand.self, CancelCommand.self,
        RetryCommand.self, PruneCommand.self, RunCommand.self, ScheduleCommand.self, CacheCommand.self,
        HelpCommand.self,
        VersionCommand.self, CompletionCommand.self, RenderAttemptCommand.self, CheckDescriptionsCommand.self,
    ]

    static let program = CommandLineProgram(
        name: "kiln", summary: "bake declarative effect timelines (JSON job files) into MP4 videos",
        commands: commands.map { $0.spec }, overview: overview, options: ["--help", "--version"])

    static func body(for spec: CommandSpec) -> (any KilnSubcommand.Type)? {
        commands.first { $0.spec.name == spec.name }
    }

    static let overview = """
        The export queue is embedded SQLite, or PostgreSQL for many hosts: --queue sqlite:PATH |
        postgres://… | 'host=… dbname=…' or $KILN_QUEUE, default $XDG_STATE_HOME/kiln/queue.sqlite3.

        render, preview, validate, enqueue and worker take --limit NAME=VALUE (repeatable): a job
        over a limit is refused with exit 65, naming the limit (see `kiln limits`); the
        configuration file's "limits" object sets them too.

        Queue commands confine jobs to asset and output roots (--asset-root DIR, --output-root DIR,
        or $XDG_CONFIG_HOME/kiln/config.json / --config FILE; default: the job file's directory);
        render, preview and validate do so only when given roots. See docs/security.md.

        Exit codes: 0 ok, 64 usage, 65 invalid or refused job, 66 missing input, 69 queue unavailable,
          70 internal error, 73 cannot create output, 75 failed but will retry,
          78 bad configuration file, 130 interrupted (SIGINT), 143 terminated (SIGTERM)
        """
}
