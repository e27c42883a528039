import Foundation
import KilnQueue
import XCTest

/// A scratch directory with a queue database in it.
final class StoreFixture {
    let directory: URL
    let clock = ManualClock()
    var databasePath: String { directory.appendingPathComponent("queue.sqlite3").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kiln-queue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Backoff jitter fixed at the middle of its band, so waits are exact.
    var policy: RetryPolicy {
        var policy = RetryPolicy()
        policy.fixedJitterUnit = 0.5
        return policy
    }

    func store() throws -> SQLiteJobStore {
        try SQLiteJobStore(path: databasePath, clock: clock, policy: policy)
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
