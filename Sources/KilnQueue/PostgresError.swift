import Foundation

/// A failed libpq call: the server's message and SQLSTATE (when it sent one), never the password.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public let sqlState: String?
    public let message: String
    /// The connection itself failed or was lost (reconnect), as opposed to a statement error.
    public let isConnectionFailure: Bool

    public var description: String {
        "PostgreSQL: \(message)" + (sqlState.map { " (SQLSTATE \($0))" } ?? "")
    }

    /// 23505: a unique constraint said no.
    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// 40001 / 40P01: serialization failure or deadlock; the transaction may simply be retried.
    public var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }
}
