import Foundation
import KilnCommandLine
import KilnExport

/// `kiln cache stats|prune|clear`: the chunk cache that `render --cache` keeps.
enum CacheCommand: KilnSubcommand {
    static let folder = OptionSpec(
        "--cache", kind: .path, placeholder: "DIR",
        help: "the cache folder (default $XDG_CACHE_HOME/kiln/chunks, or ~/.cache/kiln/chunks)")
    static let maxMegabytes = OptionSpec(
        "--max-megabytes", kind: .int(0...100_000_000), default: .int(4096),
        help: "prune: keep at most this many megabytes, the most recently used entries")

    static let spec = CommandSpec(
        "cache", summary: "the chunk cache of encoded pieces that render --cache reuses",
        description: """
            Segmented renders given --cache DIR keep each encoded piece there, keyed by the digests of
            its frames and its encoder settings, and take from it every piece whose frames did not
            change. Entries carry a checksum: a damaged one is removed and rendered again.
            """,
        subcommands: [
            CommandSpec("stats", summary: "print the number of entries and their size", options: [folder]),
            CommandSpec(
                "prune", summary: "remove the least recently used entries beyond --max-megabytes",
                options: [folder, maxMegabytes]),
            CommandSpec("clear", summary: "remove every entry", options: [folder]),
        ])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let cache = ChunkCache(
            folder: args.string(folder).map { URL(fileURLWithPath: $0) } ?? ChunkCache.defaultFolder)
        switch args.spec.name {
        case "stats":
            let stats = cache.stats()
            print("\(cache.folder.path): \(stats.entries) entries, \(stats.bytes) bytes")
        case "prune":
            let removed = cache.prune(toAtMost: (args.int(maxMegabytes) ?? 4096) * 1_048_576)
            Output.stderr("kiln: removed \(removed) cache entr\(removed == 1 ? "y" : "ies")")
        default:
            let removed = cache.clear()
            Output.stderr("kiln: removed \(removed) cache entr\(removed == 1 ? "y" : "ies")")
        }
        return ExitCode.ok
    }
}
