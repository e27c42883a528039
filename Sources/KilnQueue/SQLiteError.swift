import CSQLite
import Foundation

/// A failed SQLite call, with SQLite's own message and the statement it ran.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public let sql: String?

    /// SQLITE_BUSY / SQLITE_LOCKED: another connection holds the write lock past the busy timeout.
    public var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }

    public var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " (in: \($0.prefix(120)))" } ?? "")
    }
}
