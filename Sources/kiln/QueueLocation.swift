import Foundation
import KilnCommandLine
import KilnQueue

/// `--queue sqlite:PATH` / `$KILN_QUEUE`, else the XDG state path.
enum QueueLocation {
    static func databasePath(_ args: ParsedArguments) throws -> String {
        let given = args.declares(.queue) ? args.string(.queue) : nil
        let written = given ?? ProcessInfo.processInfo.environment["KILN_QUEUE"]
        guard let written, !written.isEmpty else { return StoreLocation.defaultDatabasePath() }
        if isPostgres(written) { return written }
        let path = written.hasPrefix("sqlite:") ? String(written.dropFirst("sqlite:".count)) : written
        guard !path.isEmpty else {
            throw args.usageError("--queue sqlite: needs a path")
        }
        return path
    }

    /// A URL or any `key=value` string libpq parses is PostgreSQL, never a file name: taking
    /// `host=… password=…` as a SQLite path would create a file named with the password and
    /// work an empty local queue. `sqlite:` forces a path.
    static func isPostgres(_ location: String) -> Bool {
        !location.hasPrefix("sqlite:") && PostgresConnection.isConnectionString(location)
    }

    /// Lease and heartbeat lengths: the design's 60 s / 15 s, shortened by
    /// `KILN_QUEUE_LEASE_SECONDS` for tests and fast failover.
    static var policy: RetryPolicy {
        var policy = RetryPolicy()
        if let text = ProcessInfo.processInfo.environment["KILN_QUEUE_LEASE_SECONDS"],
            let lease = Double(text),
            lease >= 1
        {
            policy.leaseSeconds = lease
            policy.heartbeatSeconds = lease / 4
        }
        return policy
    }

    /// A SQLite file path or a PostgreSQL connection string (its password is never printed).
    static func open(_ location: String) throws -> QueueStore {
        isPostgres(location)
            ? try QueueStore(postgresURL: location, policy: policy)
            : try QueueStore(path: location, policy: policy)
    }
}
