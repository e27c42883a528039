import Foundation

/// Which SQL the store speaks: the state machine is the same, a few statements differ.
enum SQLDialect: Sendable {
    case sqlite, postgres
}

/// What the job store needs from a database connection, so one state machine runs on SQLite and
/// on PostgreSQL. Statements use `?` placeholders; `changes` is the row count of the last one.
protocol QueueDatabase: AnyObject {
    var dialect: SQLDialect { get }
    var changes: Int { get }
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLiteValue]) throws -> [[SQLiteValue]]
    func execute(_ sql: String) throws
    /// A write transaction, retried when the database says a retry may succeed.
    func write<T>(_ body: () throws -> T) throws -> T
}

extension QueueDatabase {
    @discardableResult
    func query(_ sql: String) throws -> [[SQLiteValue]] { try query(sql, []) }
}
