import Foundation
import KilnMedia
import KilnQueue
import KilnTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A scratch queue (its own database file) and jobs in a temporary directory, driven through the
/// `kiln` binary as real processes.
class QueueTestCase: TemporaryDirectoryTestCase {
    var database: String { directory.appendingPathComponent("queue.sqlite3").path }
    var outputs: URL { directory.appendingPathComponent("out") }
    /// Short leases so crash tests finish in seconds.
    var environment: [String: String] {
        ["KILN_QUEUE": "sqlite:\(database)", "KILN_QUEUE_LEASE_SECONDS": "2"]
    }

    @discardableResult
    func kiln(_ args: [String], environment extra: [String: String] = [:]) throws -> KilnProcess.Result {
        try KilnProcess.run(args, cwd: directory, environment: environment.merging(extra) { $1 })
    }

    /// A worker in the background; its stderr goes to a log file (so a busy worker never blocks
    /// on a full pipe).
    func startWorker(_ args: [String], name: String, environment extra: [String: String] = [:]) throws
        -> Process
    {
        let process = Process()
        process.executableURL = KilnProcess.binary
        process.arguments = ["worker", "--name", name] + args
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment.merging(extra) { $1 }) {
            $1
        }
        let log = directory.appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardError = handle
        process.standardOutput = handle
        try process.run()
        return process
    }

    func workerLog(_ name: String) -> String {
        (try? String(contentsOf: directory.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? ""
    }

    /// A job of `frames` frames at `size`; `slow` adds a blur and a ripple so a render takes seconds.
    func writeJob(_ name: String, frames: Int, size: (Int, Int) = (32, 32), slow: Bool = false) throws
        -> String
    {
        let effects =
            slow
            ? #", "effects": [{"blur": 3}, {"ripple": {"amplitude": 12, "triggers": [{"at": 0.1, "origin": [300, 200]}]}}]"#
            : ""
        return try write(
            "\(name).json",
            ##"""
            {"kiln": 1, "output": {"path": "out/\##(name).mp4", "width": \##(size.0), "height": \##(size.1), "fps": 30,
                                   "duration": {"frames": \##(frames)}, "preset": "\##(slow ? "medium" : "ultrafast")"},
             "layers": [{"type": "meshGradient", "width": 2, "height": 2,
                         "points": [[0, 0], [1, 0], [0, 1], {"keyframes": [{"t": 0, "v": [1, 1]}, {"t": 10, "v": [0.2, 0.3]}]}],
                         "colors": ["#ff5a36", "#3a1c71", "#00a8cc", "#ffb347"]\##(effects)}]}
            """##)
    }

    /// `kiln status --json`, parsed.
    func status() throws -> [[String: Any]] {
        let result = try kiln(["status", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], result.stdout)
    }

    func states() throws -> [String] { try status().map { $0["state"] as? String ?? "?" } }

    func waitUntil(_ timeout: Double, _ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTFail("timed out after \(timeout) s waiting for \(what)")
    }

    /// What every fault test ends with: each job ended exactly once, completed ones decode with
    /// their frame count, no temp file is left anywhere, and the database is sound.
    func assertQueueSound(frames: [String: Int], file: StaticString = #filePath, line: UInt = #line) throws {
        for job in try status() {
            let state = job["state"] as? String ?? "?"
            XCTAssertTrue(
                ["completed", "discarded", "cancelled"].contains(state), "job \(job) ended", file: file,
                line: line)
            if state == "completed", let output = job["output"] as? String {
                let name = URL(fileURLWithPath: output).deletingPathExtension().lastPathComponent
                let info = try VideoDecodeBack.decode(path: output)
                XCTAssertEqual(info.decodedFrameCount, frames[name], "\(output)", file: file, line: line)
                XCTAssertEqual(info.decodeErrors, 0, file: file, line: line)
                let attempts = job["attempts"] as? [[String: Any]] ?? []
                XCTAssertEqual(
                    attempts.filter { $0["outcome"] as? String == "completed" }.count, 1,
                    "completed once: \(attempts)",
                    file: file, line: line)
            }
        }
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: outputs.path))?.filter {
            $0.hasPrefix(".")
        }
        XCTAssertEqual(leftovers ?? [], [], "temp files left behind", file: file, line: line)
        XCTAssertEqual(try QueueStore(path: database).integrityCheck(), "ok", file: file, line: line)
    }
}
