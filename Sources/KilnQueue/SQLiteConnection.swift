import CSQLite
import Foundation

/// One connection to a database file, used by one thread at a time (the design note: one
/// connection per thread). Configures WAL, `synchronous=FULL`, a busy timeout and foreign keys.
public final class SQLiteConnection {
    private var handle: OpaquePointer?
    public let path: String
    static let busyTimeoutMilliseconds: Int32 = 5000

    public init(path: String) throws(SQLiteError) {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            handle = nil
            throw SQLiteError(code: status, message: "\(message): \(path)", sql: nil)
        }
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=FULL")
        try execute("PRAGMA foreign_keys=ON")
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs statements that return no rows we need.
    public func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        defer { sqlite3_free(error) }
        guard status == SQLITE_OK else {
            throw SQLiteError(
                code: status, message: error.map { String(cString: $0) } ?? lastMessage, sql: sql)
        }
    }

    /// Runs one statement with positional parameters; returns every row.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]]
    {
        var statement: OpaquePointer?
        var status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard status == SQLITE_OK else { throw failure(status, sql) }
        for (index, value) in parameters.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .null: status = sqlite3_bind_null(statement, position)
            case .integer(let v): status = sqlite3_bind_int64(statement, position, v)
            case .real(let v): status = sqlite3_bind_double(statement, position, v)
            case .text(let v): status = sqlite3_bind_text(statement, position, v, -1, kiln_sqlite_transient())
            }
            guard status == SQLITE_OK else { throw failure(status, sql) }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw failure(status, sql) }
            let count = sqlite3_column_count(statement)
            rows.append(
                (0..<count).map { column in
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                    case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                    case SQLITE_NULL: .null
                    default: .text(String(cString: sqlite3_column_text(statement, column)))
                    }
                })
        }
        return rows
    }

    /// Rows changed by the last INSERT/UPDATE/DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    private var lastMessage: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection" }

    private func failure(_ status: Int32, _ sql: String) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: lastMessage, sql: sql)
    }
}
