import Foundation
import XCTest

/// `--limit` on the queue commands: enqueue validates under its limits, and a worker holds every
/// job it runs to its own, whatever the job was enqueued under.
final class QueueLimitTests: QueueTestCase {
    func testEnqueueRefusesAJobOverALimitAndQueuesNothing() throws {
        let job = try writeJob("long", frames: 4)
        let refused = try kiln(["enqueue", job, "--limit", "frames=3"])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("over the limit frames = 3"), refused.stderr)
        XCTAssertEqual(try status().count, 0)
    }

    func testWorkerHoldsJobsToItsOwnLimits() throws {
        let job = try writeJob("long", frames: 4)
        XCTAssertEqual(try kiln(["enqueue", job]).status, 0)
        let worker = try kiln(["worker", "--drain", "--limit", "frames=3"])
        XCTAssertEqual(worker.status, 0, worker.stderr)
        XCTAssertEqual(try states(), ["discarded"])
        let logs = try kiln(["logs", "1"])
        XCTAssertTrue(logs.stdout.contains("frames = 3"), logs.stdout + logs.stderr)
    }
}
