import Foundation
import KilnCommandLine
import KilnQueue

enum PruneCommand: KilnSubcommand {
    static let olderThan = OptionSpec(
        "--older-than", kind: .string, placeholder: "DURATION",
        help: "required: 90 (seconds), 45s, 30m, 12h, 7d, 2w, 1h30m")
    static let spec = CommandSpec(
        "prune", summary: "delete ended jobs (--older-than DURATION)",
        description: """
            Deletes completed, discarded and cancelled jobs (and their attempts and logs) that ended
            more than DURATION ago. Output files stay.
            """,
        options: [olderThan, .queue])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        guard let text = args.string(olderThan), let age = DurationText.seconds(text) else {
            throw args.usageError("prune needs --older-than DURATION (e.g. 7d, 12h, 30m)")
        }
        let store = try QueueLocation.open(try QueueLocation.databasePath(args))
        let removed = try store.prune(endedBefore: Date().timeIntervalSince1970 - age)
        Output.stderr("kiln: removed \(removed) ended job(s)")
        return ExitCode.ok
    }
}
