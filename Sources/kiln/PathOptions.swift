import Foundation
import KilnExport
import KilnModel
import KilnQueue
import KilnWorker

/// `--asset-root DIR`, `--output-root DIR` (repeatable) and `--config FILE`: where jobs may read
/// and write. Queue commands (`enqueue`, `worker`, `run`, `schedule`) always confine, to the
/// configured roots or else each job's own directory; `render`, `preview` and `validate` confine
/// only when given roots, since the job is the user's own.
enum PathOptions {
    static let rootFlags: Set<String> = ["--asset-root", "--output-root"]
    static let queueFlags: Set<String> = rootFlags.union(["--config"])

    /// Roots for a queue command: the flags, then the configuration file's.
    static func queueRoots(_ args: Arguments, command: String, queueLocation: String) throws -> JobRoots {
        let configuration = try KilnConfiguration.load(explicit: args.values["--config"])
        var roots = JobRoots(protectedFiles: protectedFiles(queueLocation: queueLocation))
        roots.assetRoots = try directories(args, "--asset-root", command: command) + configuration.assetRoots
        roots.outputRoots =
            try directories(args, "--output-root", command: command) + configuration.outputRoots
        return roots
    }

    /// Rules for a command on the user's own job: roots only when given, and never over the
    /// queue this user's queue commands would use.
    static func localRules(_ args: Arguments, command: String) throws -> PathRules {
        let assets = try directories(args, "--asset-root", command: command)
        let outputs = try directories(args, "--output-root", command: command)
        let queue = try QueueLocation.databasePath(args, command: command)
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

    private static func directories(_ args: Arguments, _ flag: String, command: String) throws -> [String] {
        try (args.repeated[flag] ?? []).map { written in
            let path = URL(fileURLWithPath: written).standardizedFileURL.path
            // An output root may not exist yet: the worker creates output directories.
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            {
                throw UsageError(message: "\(flag) \(written): not a directory", command: command)
            }
            return path
        }
    }
}
