import Foundation

/// A file an output must not replace, with what it is for messages.
public struct ProtectedFile: Sendable, Hashable, Codable {
    public let path: String
    public let role: String

    public init(path: String, role: String) {
        self.path = path
        self.role = role
    }

    /// A SQLite queue and the journal files beside it: replacing any of them loses jobs.
    public static func queueDatabase(_ path: String) -> [ProtectedFile] {
        ["", "-wal", "-shm", "-journal"].map { ProtectedFile(path: path + $0, role: "the queue database") }
    }
}
