import Foundation

/// PostgreSQL through libpq: `?` placeholders become `$1…$n`, values travel as text.
final class PostgresDatabase: QueueDatabase {
    let connection: PostgresConnection
    var dialect: SQLDialect { .postgres }
    var changes: Int { connection.changes }

    init(url: String) throws {
        connection = try PostgresConnection(url: url)
    }

    @discardableResult
    func query(_ sql: String, _ parameters: [SQLiteValue]) throws -> [[SQLiteValue]] {
        let text: [String?] = parameters.map {
            switch $0 {
            case .null: nil
            case .integer(let v): String(v)
            case .real(let v): String(v)
            case .text(let v): v
            }
        }
        return try connection.query(Self.numbered(sql), text).map { row in
            row.map { $0.map { .text($0) } ?? .null }
        }
    }

    func execute(_ sql: String) throws { try connection.execute(sql) }

    /// Serialization failures, deadlocks and unique-key races between concurrent writers (two
    /// enqueues with one idempotency key) are retried: the second try sees the first's row.
    func write<T>(_ body: () throws -> T) throws -> T {
        var attempt = 0
        while true {
            try connection.execute("BEGIN")
            do {
                let result = try body()
                try connection.execute("COMMIT")
                return result
            } catch let error as PostgresError
                where (error.isRetryable || error.isUniqueViolation) && attempt < 5
            {
                try? connection.execute("ROLLBACK")
                attempt += 1
                usleep(UInt32.random(in: 1_000...(10_000 * UInt32(attempt))))
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// `?` → `$1`, `$2`, … outside quoted strings.
    static func numbered(_ sql: String) -> String {
        var result = "", index = 0, quoted = false
        for character in sql {
            if character == "'" { quoted.toggle() }
            if character == "?" && !quoted {
                index += 1
                result += "$\(index)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
