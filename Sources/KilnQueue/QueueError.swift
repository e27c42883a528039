/// Problems with the queue itself (not with a job).
public enum QueueError: Error, CustomStringConvertible, Sendable {
    case newerSchema(path: String, found: Int, supported: Int)
    case networkFilesystem(path: String, kind: String)
    case unusableLocation(path: String, reason: String)
    case invalidSchedule(name: String, reason: String)
    /// A worker could not keep using the queue (it was unreachable for longer than it waits).
    case unavailable(reason: String)
    /// SQLite's `quick_check` found the file damaged: nothing may write to it.
    case malformed(path: String, verdict: String)

    public var description: String {
        switch self {
        case .newerSchema(let path, let found, let supported):
            "\(path): queue schema version \(found) is newer than this Kiln understands (\(supported)); upgrade Kiln"
        case .networkFilesystem(let path, let kind):
            "\(path) is on a network file system (\(kind)); SQLite's locking is not safe there: use a local disk or --queue postgres://…"
        case .unusableLocation(let path, let reason):
            "\(path): \(reason)"
        case .invalidSchedule(let name, let reason):
            "schedule '\(name)': \(reason)"
        case .unavailable(let reason):
            "the queue is unavailable: \(reason)"
        case .malformed(let path, let verdict):
            "\(path): the queue database is malformed (quick_check: \(verdict.split(whereSeparator: \.isNewline).prefix(3).joined(separator: "; "))); nothing was written "
                + "to it. Restore it from a backup, or move it aside to start an empty queue"
        }
    }
}
