import Foundation
import KilnQueue
import XCTest

/// The same, against a database of its own on the test run's PostgreSQL server (skipped when
/// `scripts/test.sh` did not start one).
class PostgresQueueTestCase: QueueTestCase {
    private var url = ""
    private var databaseName = ""
    private var admin = ""

    override var environment: [String: String] { ["KILN_QUEUE": url, "KILN_QUEUE_LEASE_SECONDS": "2"] }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard let server = ProcessInfo.processInfo.environment["KILN_TEST_POSTGRES"], !server.isEmpty else {
            throw XCTSkip("KILN_TEST_POSTGRES is not set (scripts/test.sh starts a server and sets it)")
        }
        admin = server
        databaseName = "kiln_cli_\(UInt32.random(in: 0...UInt32.max))"
        try PostgresConnection(url: server).execute("CREATE DATABASE \(databaseName)")
        url = server.replacingOccurrences(of: "/postgres", with: "/\(databaseName)")
    }

    override func tearDownWithError() throws {
        if !databaseName.isEmpty {
            try? PostgresConnection(url: admin).execute(
                "DROP DATABASE IF EXISTS \(databaseName) WITH (FORCE)")
        }
        try super.tearDownWithError()
    }
}
