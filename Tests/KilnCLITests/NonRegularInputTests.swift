import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 41, items 7 and 15: `kiln review` and `enqueue --batch` on a FIFO or device. Each runs
/// bounded (killed after its time), so a regression fails instead of hanging the suite.
final class NonRegularInputTests: QueueTestCase {
    func bounded(_ args: [String], name: String, timeout: Double = 30) throws -> (
        status: Int32, stderr: String, seconds: Double
    ) {
        let start = Date()
        let run = try BoundedRun(
            [KilnProcess.binary.path] + args, name: name, in: directory, timeout: timeout)
        switch run.wait() {
        case .timedOut:
            XCTFail("\(args) still ran after \(timeout) s")
            return (-1, run.stderrText, timeout)
        case .exited(let status, _, let stderr):
            return (status, stderr, Date().timeIntervalSince(start))
        }
    }

    func testReviewRefusesAFIFOAndADeviceAtOnce() throws {
        let fifo = directory.appendingPathComponent("vid.mp4").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for (input, word) in [(fifo, "FIFO"), ("/dev/zero", "device")] {
            let result = try bounded(["review", input, "-o", "page.html"], name: "review-\(word)")
            XCTAssertEqual(result.status, 66, result.stderr)
            XCTAssertTrue(
                result.stderr.contains(word) && result.stderr.contains("not a regular file"), result.stderr)
            XCTAssertLessThan(result.seconds, 10)
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: directory.appendingPathComponent("page.html").path))
        }
    }

    /// A completed job's output replaced by a FIFO: left off the page with a note, for `--batch`,
    /// `--since` and the worker hook's `--if-ended`; the other video is still reviewed.
    func testAQueuedOutputThatBecameAFIFOIsLeftOffThePage() throws {
        let first = try writeJob("first", frames: 4), second = try writeJob("second", frames: 4)
        let queued = try kiln(["enqueue", first, second])
        XCTAssertEqual(queued.status, 0, queued.stderr)
        XCTAssertEqual(try kiln(["worker", "--drain"]).status, 0)
        let batch = try XCTUnwrap(try status().first?["batch"] as? Int)
        let output = outputs.appendingPathComponent("second.mp4").path
        XCTAssertEqual(unlink(output), 0)
        XCTAssertEqual(mkfifo(output, 0o600), 0)
        let forms: [[String]] = [
            ["--batch", "\(batch)"], ["--since", "1h"], ["--batch", "\(batch)", "--if-ended"],
        ]
        for (index, form) in forms.enumerated() {
            let page = "page\(index).html"
            let result = try bounded(["review"] + form + ["-o", page], name: "review-queued-\(index)")
            XCTAssertEqual(result.status, 0, "\(form): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("second.mp4 (job 2's output)"), result.stderr)
            XCTAssertTrue(result.stderr.contains("FIFO"), result.stderr)
            XCTAssertTrue(result.stderr.contains("not on the page"), result.stderr)
            let html = try String(contentsOf: directory.appendingPathComponent(page), encoding: .utf8)
            XCTAssertEqual(html.components(separatedBy: "<article class=\"video\"").count - 1, 1, "\(form)")
            XCTAssertTrue(html.contains("first.mp4"))
        }
    }

    func testEnqueueRefusesABatchFileThatIsAFIFO() throws {
        let job = try writeJob("rows", frames: 2)
        let fifo = directory.appendingPathComponent("rows.csv").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let result = try bounded(["enqueue", job, "--batch", fifo], name: "enqueue-fifo-batch")
        XCTAssertEqual(result.status, 66, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("rows.csv: is a FIFO (named pipe), not a regular file"), result.stderr)
        XCTAssertFalse(result.stderr.lowercased().contains("permission"), result.stderr)
        let missing = try bounded(["enqueue", job, "--batch", "nowhere.csv"], name: "enqueue-missing-batch")
        XCTAssertEqual(missing.status, 66, missing.stderr)
        XCTAssertEqual(
            try kiln(["status", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines), "[]")
    }
}
