import CLibPQ
import Foundation

/// One connection to PostgreSQL through libpq, used by one thread at a time. Statements run
/// with text parameters (`$1`, `$2`, …) and return text rows; autocommit unless inside
/// `transaction`.
public final class PostgresConnection {
    private var connection: OpaquePointer?
    /// The URL with any password removed, for messages.
    public let redactedURL: String

    public init(url: String) throws(PostgresError) {
        // Parsed before anything else sees it: a string libpq cannot parse is refused here,
        // without echoing it, and the password is known so it can be scrubbed from messages.
        let location = try PostgresLocation(parsing: url)
        redactedURL = location.redacted
        connection = PQconnectdb(Self.withTimeouts(url))
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let message = connection.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(connection)
            self.connection = nil
            throw PostgresError(
                sqlState: nil,
                message:
                    "cannot connect to \(redactedURL): "
                    + location.scrubbed(message.trimmingCharacters(in: .whitespacesAndNewlines)),
                isConnectionFailure: true)
        }
        // Keep the server's notices (e.g. "relation already exists, skipping") off stderr.
        try execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(connection) }

    /// A worker must notice a server that went away rather than wait on it forever: bounded
    /// connects, and TCP keepalives and a send timeout on an idle or stuck connection. Settings
    /// the URL already names are left as they are.
    static func withTimeouts(_ url: String) -> String {
        let defaults = [
            ("connect_timeout", "10"), ("keepalives", "1"), ("keepalives_idle", "10"),
            ("keepalives_interval", "5"), ("keepalives_count", "3"), ("tcp_user_timeout", "30000"),
        ].filter { !url.contains($0.0 + "=") }
        guard !defaults.isEmpty else { return url }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            let query = defaults.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            return url + (url.contains("?") ? "&" : "?") + query
        }
        return url + " " + defaults.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    }

    /// `postgres://user:secret@host/db?password=…` → `postgres://user@host/db`; a string that
    /// does not parse is not shown at all.
    public static func redact(_ url: String) -> String {
        (try? PostgresLocation(parsing: url))?.redacted
            ?? "(a PostgreSQL connection string that does not parse)"
    }

    /// Whether `text` is a PostgreSQL connection string (a URL or libpq `key=value` pairs that
    /// parse), as opposed to a file name.
    public static func isConnectionString(_ text: String) -> Bool {
        PostgresLocation.isConnectionString(text)
    }

    /// Rows changed by the last INSERT/UPDATE/DELETE.
    public private(set) var changes = 0

    /// Runs one statement (or several, without parameters).
    public func execute(_ sql: String) throws(PostgresError) {
        _ = try query(sql, [])
    }

    /// Runs one statement with text parameters (nil = NULL); returns every row as text (nil = NULL).
    @discardableResult
    public func query(_ sql: String, _ parameters: [String?]) throws(PostgresError) -> [[String?]] {
        guard let connection else {
            throw PostgresError(sqlState: nil, message: "not connected", isConnectionFailure: true)
        }
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexec(connection, sql)
        } else {
            let copies = parameters.map { $0.map { strdup($0) } ?? nil }
            defer { copies.forEach { free($0) } }
            let values = copies.map { UnsafePointer<CChar>($0) }
            result = values.withUnsafeBufferPointer {
                PQexecParams(connection, sql, Int32(parameters.count), nil, $0.baseAddress, nil, nil, 0)
            }
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, kiln_pg_diag_sqlstate()).map { String(cString: $0) }
            let message = String(cString: PQerrorMessage(connection)).trimmingCharacters(
                in: .whitespacesAndNewlines)
            throw PostgresError(
                sqlState: state, message: message.isEmpty ? "statement failed" : message,
                isConnectionFailure: PQstatus(connection) != CONNECTION_OK)
        }
        changes = Int(String(cString: PQcmdTuples(result))) ?? 0
        let rows = Int(PQntuples(result)), columns = Int(PQnfields(result))
        return (0..<rows).map { row in
            (0..<columns).map { column in
                PQgetisnull(result, Int32(row), Int32(column)) == 1
                    ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
            }
        }
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    public func transaction<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
