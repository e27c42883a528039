import Foundation
import KilnQueue
import KilnTestSupport
import XCTest

/// A fresh, empty queue for one test: a SQLite file in a scratch directory, or a scratch database
/// on the PostgreSQL server `scripts/test.sh` starts (`KILN_TEST_POSTGRES`).
final class StoreFixture {
    enum Backend {
        case sqlite
        case postgres(adminURL: String)
    }

    private let scratch: TemporaryDirectory
    var directory: URL { scratch.url }
    let clock = ManualClock()
    let backend: Backend
    private var postgresDatabase: String?
    var databasePath: String { directory.appendingPathComponent("queue.sqlite3").path }

    init(_ backend: Backend = .sqlite) throws {
        self.backend = backend
        scratch = try TemporaryDirectory(label: "kiln-queue")
        if case .postgres(let admin) = backend {
            let name = "kiln_test_\(UInt32.random(in: 0...UInt32.max))"
            try PostgresConnection(url: admin).execute("CREATE DATABASE \(name)")
            postgresDatabase = name
        }
    }

    /// The admin URL, or a skip when no server was started for this run.
    static func postgres() throws -> StoreFixture {
        guard let url = ProcessInfo.processInfo.environment["KILN_TEST_POSTGRES"], !url.isEmpty else {
            throw XCTSkip("KILN_TEST_POSTGRES is not set (scripts/test.sh starts a server and sets it)")
        }
        return try StoreFixture(.postgres(adminURL: url))
    }

    deinit {
        if case .postgres(let admin) = backend, let name = postgresDatabase {
            try? PostgresConnection(url: admin).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
    }

    /// Backoff jitter fixed at the middle of its band, so waits are exact.
    var policy: RetryPolicy {
        var policy = RetryPolicy()
        policy.fixedJitterUnit = 0.5
        return policy
    }

    /// This test's own database on the server (PostgreSQL only).
    var postgresURL: String? {
        guard case .postgres(let admin) = backend else { return nil }
        return admin.replacingOccurrences(of: "/postgres", with: "/\(postgresDatabase ?? "postgres")")
    }

    func store() throws -> QueueStore {
        if let url = postgresURL { return try QueueStore(postgresURL: url, clock: clock, policy: policy) }
        return try QueueStore(path: databasePath, clock: clock, policy: policy)
    }

    static func request(_ name: String = "intro", key: String? = nil, priority: Int = 0, runAt: Double? = nil)
        -> EnqueueRequest
    {
        EnqueueRequest(
            name: name, jobFile: "/jobs/\(name).json", jobJSON: #"{"kiln": 1}"#, baseDirectory: "/jobs",
            variables: ["title": "Hello"], output: "/out/\(name).mp4", priority: priority, runAt: runAt,
            idempotencyKey: key)
    }
}

extension WorkerIdentity {
    /// A worker that claims to be this very process (so the reaper sees its owner alive).
    static func test(_ name: String) -> WorkerIdentity { .current(name: name) }
}
