import CSQLite
import Foundation

/// A failed SQLite call, with SQLite's own message and the statement it ran.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public let sql: String?

    /// SQLITE_BUSY / SQLITE_LOCKED: another connection holds the write lock past the busy timeout.
    public var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }

    /// SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY: a unique constraint said no. (Extended codes are
    /// macros Swift cannot import: SQLITE_CONSTRAINT | n << 8.)
    public var isUniqueViolation: Bool {
        code == SQLITE_CONSTRAINT | 8 << 8 || code == SQLITE_CONSTRAINT | 6 << 8
    }

    public var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " (in: \($0.prefix(120)))" } ?? "")
    }
}
