import Foundation
import XCTest

/// What `kiln status` shows of a job: nothing of an earlier state may be left in its row.
final class LiveStatusTests: QueueTestCase {
    private func job(_ id: Int) throws -> [String: Any]? {
        try status().first { $0["id"] as? Int == id }
    }

    /// The reported lines: `available 100% 1/6` for a retried completed job, and `0.0%
    /// (rendering)` for a discarded one.
    func testEndedAndRequeuedJobsShowNoLeftovers() throws {
        let short = try writeJob("short", frames: 2), long = try writeJob("long", frames: 4)
        XCTAssertEqual(try kiln(["enqueue", short, long]).status, 0)
        let worker = try kiln(["worker", "--drain", "--limit", "frames=3"])
        XCTAssertEqual(worker.status, 0, worker.stderr)
        XCTAssertEqual(try states(), ["completed", "discarded"])
        let discarded = try kiln(["status", "2"]).stdout
        XCTAssertTrue(discarded.contains("  progress:  0.0%\n"), discarded)
        XCTAssertTrue(try job(2)?["stage"] is NSNull)
        let completed = try kiln(["status", "1"]).stdout
        XCTAssertTrue(completed.contains("  progress:  100.0%\n"), completed)

        XCTAssertEqual(try kiln(["retry", "1"]).status, 0)
        let table = try kiln(["status"]).stdout
        let row = try XCTUnwrap(table.split(separator: "\n").first { $0.hasPrefix("1 ") }, table)
        XCTAssertEqual(row.split(separator: " ").prefix(4).map(String.init), ["1", "available", "0%", "1/6"])
        let retried = try kiln(["status", "1"]).stdout
        XCTAssertTrue(retried.contains("  progress:  0.0%\n"), retried)
        XCTAssertTrue(try job(1)?["stage"] is NSNull)
    }
}
