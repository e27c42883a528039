import CLibPQ
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

/// A connection string (URL or libpq `key=value` form) as libpq parses it: what may be shown
/// (user, host, port, database) and the password, kept only to scrub it from messages.
struct PostgresLocation {
    let user: String?
    let host: String?
    let port: String?
    let database: String?
    private let password: String?

    init(parsing conninfo: String) throws(PostgresError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &errorMessage) else {
            let reason = errorMessage.map { String(cString: $0) } ?? "out of memory"
            PQfreemem(errorMessage)
            throw PostgresError(
                sqlState: nil,
                message: "the connection string does not parse (\(Self.withoutQuotes(reason))); it is not "
                    + "shown, since it may hold a password",
                isConnectionFailure: true)
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        user = values["user"]
        host = values["host"] ?? values["hostaddr"]
        port = values["port"]
        database = values["dbname"]
        password = values["password"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `postgres://user@host:port/database`, with only the parts the string names.
    var redacted: String {
        var text = "postgres://"
        if let user, !user.isEmpty { text += Self.escaped(user) + "@" }
        if let host {
            text += host.contains(":") && !host.contains(",") ? "[\(host)]" : host
        }
        if let port, !port.isEmpty { text += ":" + port }
        if let database, !database.isEmpty { text += "/" + Self.escaped(database) }
        return text
    }

    /// `message` with the password (and its percent-encoded form) replaced, in case libpq
    /// quoted it.
    func scrubbed(_ message: String) -> String {
        guard let password else { return message }
        var text = message.replacingOccurrences(of: password, with: "***")
        if let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics),
            encoded != password
        {
            text = text.replacingOccurrences(of: encoded, with: "***")
        }
        return text
    }

    /// libpq quotes the part of the string it stopped at, which may be the password.
    private static func withoutQuotes(_ reason: String) -> String {
        var text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        for marker in [" in URI", " in connection info string"] {
            if let range = text.range(of: marker) { text = String(text[..<range.lowerBound]) }
        }
        return text.replacingOccurrences(of: #""[^"]*""#, with: "\"…\"", options: .regularExpression)
    }

    private static func escaped(_ part: String) -> String {
        part.addingPercentEncoding(
            withAllowedCharacters: .urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@")))
            ?? part
    }
}
