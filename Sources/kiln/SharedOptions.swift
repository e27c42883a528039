import KilnCommandLine
import KilnExport

/// Options several commands take, each described once: commands list them in their `spec`, and
/// bodies read them back through `ParsedArguments` (`args.int(.threads)`).
extension OptionSpec {
    static let threads = OptionSpec(
        "--threads", kind: .int(1...256),
        help: "render threads (default: all cores); output is identical for any N")
    static let jobThreads = OptionSpec(
        "--threads", kind: .int(1...256), help: "render threads per job (default: cores / concurrency)")
    static let set = OptionSpec(
        "--set", kind: .string, placeholder: "name=value", repeatable: true,
        help: "a job variable (repeatable; see the job's \"variables\")")
    static let limit = OptionSpec(
        "--limit", kind: .string, placeholder: "NAME=VALUE", repeatable: true,
        help: "raise or lower a resource limit (repeatable; see `kiln limits`)")
    static let segments = OptionSpec(
        "--segments", kind: .int(1...SegmentPlan.maximumSegments),
        help: "split into N segments (1: one piece, no resume)")
    static let segmentSeconds = OptionSpec(
        "--segment-seconds", kind: .double(minimum: 0), help: "split into segments of about S seconds")
    static let frameHashes = OptionSpec(
        "--frame-hashes", kind: .path, placeholder: "FILE",
        help: "append \"FRAME DIGEST\" for every rendered frame (the pixels before encoding) to FILE: "
            + "equal for any thread count, segmenting or host")
    static let noClobber = OptionSpec.flag(
        "--no-clobber", short: "n",
        help: "leave an output that already exists as it is: say so and exit 0 without rendering")
    static let priority = OptionSpec(
        "--priority", kind: .int(-1000...1000), default: .int(0), help: "lower runs first")
    static let queue = OptionSpec(
        "--queue", kind: .string, placeholder: "LOCATION",
        help: "sqlite:PATH, or a PostgreSQL connection string (postgres://USER[:PASSWORD]@HOST[:PORT]/DB "
            + "or libpq's \"host=… dbname=…\" form) for a queue shared by many hosts "
            + "(default: $KILN_QUEUE, else $XDG_STATE_HOME/kiln/queue.sqlite3 or "
            + "~/.local/state/kiln/queue.sqlite3)")
    static let config = OptionSpec(
        "--config", kind: .path, placeholder: "FILE",
        help: "configuration (default $XDG_CONFIG_HOME/kiln/config.json, else ~/.config/kiln/config.json): "
            + "{\"assetRoots\": [...], \"outputRoots\": [...], \"limits\": {NAME: VALUE}}")

    /// For the user's own job (`render`, `preview`, `validate`): no roots unless given.
    static let assetRoot = OptionSpec(
        "--asset-root", kind: .path, placeholder: "DIR", repeatable: true,
        help:
            "read images, video clips, audio and transcripts only under DIR (repeatable; symbolic links and .. "
            + "resolved first; default: anywhere)")
    static let outputRoot = OptionSpec(
        "--output-root", kind: .path, placeholder: "DIR", repeatable: true,
        help: "write outputs only under DIR (repeatable; default: anywhere)")
    /// For queue commands: the configuration's roots, else each job file's directory.
    static let queueAssetRoot = OptionSpec(
        "--asset-root", kind: .path, placeholder: "DIR", repeatable: true,
        help:
            "read images, video clips, audio and transcripts only under DIR (repeatable; symbolic links and .. "
            + "resolved first, also in --set and batch values; default: the config file's assetRoots, "
            + "else each job file's own directory tree)")
    static let queueOutputRoot = OptionSpec(
        "--output-root", kind: .path, placeholder: "DIR", repeatable: true,
        help: "write outputs only under DIR (repeatable; default: the config file's outputRoots, else "
            + "each job file's own directory tree)")

    /// Where a render may read and write: `render`, `preview`, `validate`.
    static let localRoots: [OptionSpec] = [.assetRoot, .outputRoot]
    /// Where queued jobs may read and write, and the queue: `enqueue`, `worker`, `run`, `schedule add`.
    static let queueRoots: [OptionSpec] = [.queueAssetRoot, .queueOutputRoot, .config, .queue]
}

extension PositionalSpec {
    static let job = PositionalSpec("JOB", kind: .path, help: "the job file (JSON; see docs/job-format.md)")
    static let jobs = PositionalSpec("JOB", kind: .path, count: .oneOrMore, help: "job files (JSON)")
    static let jobID = PositionalSpec(
        "ID", kind: .int(0...Int.max), help: "a job id from `kiln enqueue` or `kiln status`")
}
