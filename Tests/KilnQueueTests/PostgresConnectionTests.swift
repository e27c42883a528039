import Foundation
import KilnQueue
import XCTest

/// libpq through `PostgresConnection`, against the throwaway cluster `scripts/test.sh` starts
/// (`KILN_TEST_POSTGRES`); skipped where none was started.
final class PostgresConnectionTests: XCTestCase {
    static var url: String? {
        ProcessInfo.processInfo.environment["KILN_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func connect() throws -> PostgresConnection {
        guard let url = Self.url else {
            throw XCTSkip("KILN_TEST_POSTGRES is not set (scripts/test.sh sets it)")
        }
        return try PostgresConnection(url: url)
    }

    func testParametersNullsTransactionsAndErrors() throws {
        let db = try connect()
        let table = "kiln_smoke_\(UInt32.random(in: 0...UInt32.max))"
        try db.execute(
            "CREATE TABLE \(table) (id bigserial PRIMARY KEY, name text UNIQUE, score double precision)")
        defer { try? db.execute("DROP TABLE \(table)") }
        let inserted = try db.query(
            "INSERT INTO \(table) (name, score) VALUES ($1, $2), ($3, $4) RETURNING id",
            ["a'; DROP TABLE x; --", "1.5", "b", nil])
        XCTAssertEqual(inserted.count, 2)
        let rows = try db.query("SELECT name, score FROM \(table) ORDER BY id", [])
        XCTAssertEqual(rows, [["a'; DROP TABLE x; --", "1.5"], ["b", nil]])
        XCTAssertThrowsError(try db.query("INSERT INTO \(table) (name) VALUES ($1)", ["b"])) { error in
            XCTAssertTrue((error as? PostgresError)?.isUniqueViolation ?? false, "\(error)")
        }
        XCTAssertThrowsError(
            try db.transaction { () throws(PostgresError) in
                try db.query("INSERT INTO \(table) (name) VALUES ($1)", ["c"])
                try db.query("SELECT 1/0", [])
            })
        XCTAssertEqual(try db.query("SELECT count(*) FROM \(table)", []), [["2"]], "rolled back")
    }

    func testPasswordsNeverAppearInMessages() {
        XCTAssertEqual(
            PostgresConnection.redact("postgres://kiln:s3cret@db.example:5432/kiln"),
            "postgres://kiln@db.example:5432/kiln")
        XCTAssertEqual(
            PostgresConnection.redact("postgresql://kiln@db.example/kiln?password=s3cret&sslmode=require"),
            "postgres://kiln@db.example/kiln")
        XCTAssertEqual(
            PostgresConnection.redact("host=db.example port=6543 user=kiln password='s3 cret' dbname=q"),
            "postgres://kiln@db.example:6543/q")
        XCTAssertFalse(PostgresConnection.redact("postgres://kiln:s3cret@[::1/db").contains("s3cret"))
        XCTAssertEqual(
            PostgresConnection.redact("postgres://kiln@127.0.0.1/x"), "postgres://kiln@127.0.0.1/x")
        XCTAssertThrowsError(
            try PostgresConnection(url: "postgres://kiln:s3cret@127.0.0.1:1/none?connect_timeout=2")
        ) {
            error in
            XCTAssertFalse("\(error)".contains("s3cret"), "\(error)")
            XCTAssertTrue((error as? PostgresError)?.isConnectionFailure ?? false)
        }
        // Refused before libpq tries it, and never echoed: libpq's own message quotes the URL.
        XCTAssertThrowsError(try PostgresConnection(url: "postgres://user:s3cret@[::1/db")) { error in
            XCTAssertFalse("\(error)".contains("s3cret"), "\(error)")
            XCTAssertTrue("\(error)".contains("does not parse"), "\(error)")
        }
        XCTAssertThrowsError(
            try PostgresConnection(url: "postgres://kiln@127.0.0.1:1/none?password=s3cret&connect_timeout=2")
        ) { error in
            XCTAssertFalse("\(error)".contains("s3cret"), "\(error)")
        }
    }

    /// A connection string inside a value (libpq expands `dbname`; users paste URLs into fields)
    /// is hidden, and the passwords inside it never reach a message.
    func testCredentialsInsideOtherValuesAreNeverShown() {
        let nestedPairs = "postgres://kiln@127.0.0.1:1/?dbname=host%3Dx%20password%3Dn3sted&connect_timeout=2"
        XCTAssertEqual(PostgresConnection.redact(nestedPairs), "postgres://kiln@127.0.0.1:1/(hidden)")
        let nestedURL = "host=127.0.0.1 port=1 dbname='postgres://u:n3sted@elsewhere/db' connect_timeout=2"
        XCTAssertFalse(PostgresConnection.redact(nestedURL).contains("n3sted"))
        XCTAssertFalse(PostgresConnection.redact("user=u:n3sted@x host=127.0.0.1").contains("n3sted"))
        for location in [nestedPairs, nestedURL] {
            XCTAssertThrowsError(try PostgresConnection(url: location)) { error in
                XCTAssertFalse("\(error)".contains("n3sted"), "\(error)")
            }
        }
    }

    /// Every form libpq accepts is a connection string; a file name never is.
    func testConnectionStringsAreToldFromFileNames() {
        for text in [
            "postgres://u@h/db", "postgresql:///db", "host=/tmp dbname=q", "dbname=q",
            "host=db.example password=s3cret dbname=q", "service=kiln",
        ] {
            XCTAssertTrue(PostgresConnection.isConnectionString(text), text)
        }
        for text in ["queue.sqlite3", "/var/lib/kiln/queue.db", "a=b.db", "dir/x=y", "="] {
            XCTAssertFalse(PostgresConnection.isConnectionString(text), text)
        }
    }
}
