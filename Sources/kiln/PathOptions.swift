import Foundation
import KilnCommandLine
import KilnExport
import KilnModel
import KilnQueue
import KilnWorker

/// `--asset-root DIR`, `--output-root DIR` (repeatable) and `--config FILE`: where jobs may read
/// and write. Queue commands (`enqueue`, `worker`, `run`, `schedule`) always confine, to the
/// configured roots or else each job's own directory; `render`, `preview` and `validate` confine
/// only when given roots, since the job is the user's own.
enum PathOptions {
    /// Roots for a queue command: the flags, then the configuration file's.
    static func queueRoots(_ args: ParsedArguments, queueLocation: String) throws -> JobRoots {
        let configuration = try KilnConfiguration.load(explicit: args.string(.config))
        var roots = JobRoots(protectedFiles: protectedFiles(queueLocation: queueLocation))
        roots.assetRoots = try directories(args, .assetRoot) + configuration.assetRoots
        roots.outputRoots = try directories(args, .outputRoot) + configuration.outputRoots
        return roots
    }

    /// Rules for a command on the user's own job: roots only when given, and never over the
    /// queue this user's queue commands would use.
    static func localRules(_ args: ParsedArguments) throws -> PathRules {
        let assets = try directories(args, .assetRoot)
        let outputs = try directories(args, .outputRoot)
        let queue = try QueueLocation.databasePath(args)
        var rules = PathRules(
            assetRoots: assets.isEmpty ? nil : assets, outputRoots: outputs.isEmpty ? nil : outputs,
            protectedFiles: protectedFiles(queueLocation: queue))
        rules.longestOutputName = SegmentedExport.longestOutputName
        return rules
    }

    /// The queue's files (none for PostgreSQL), registered so that every output this process
    /// opens is checked against them as well.
    static func protectedFiles(queueLocation: String) -> [ProtectedFile] {
        let files = QueueLocation.isPostgres(queueLocation) ? [] : ProtectedFile.queueDatabase(queueLocation)
        AtomicOutputFile.protectedFiles.withLock { $0 = files }
        return files
    }

    static func directories(_ args: ParsedArguments, _ option: OptionSpec) throws -> [String] {
        try args.strings(option).map { written in
            let path = URL(fileURLWithPath: written).standardizedFileURL.path
            // An output root may not exist yet: the worker creates output directories.
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            {
                throw args.usageError("\(option.long) \(written): not a directory")
            }
            return path
        }
    }
}
