import Foundation
import XCTest

/// A kiln command whose output goes to files (never a pipe that can fill) and which is killed
/// with SIGKILL once its time is up.
final class BoundedRun {
    enum Outcome {
        case exited(Int32, stdout: String, stderr: String)
        case timedOut
    }

    private let child: SpawnedChild
    private let stdoutURL: URL
    private let stderrURL: URL
    private let deadline: Date

    init(_ command: [String], name: String, in directory: URL, timeout: Double) throws {
        let logs = directory.appendingPathComponent("soak-logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        stdoutURL = logs.appendingPathComponent("\(name).out")
        stderrURL = logs.appendingPathComponent("\(name).err")
        try? FileManager.default.removeItem(at: stdoutURL)
        try? FileManager.default.removeItem(at: stderrURL)
        // stdout to its own file; stderr redirected by the shell so the two stay apart.
        child = try SpawnedChild(
            ["/bin/sh", "-c", "exec \"$@\" 2>\"$0\"", stderrURL.path] + command, in: directory,
            environment: ["KILN_QUEUE": "sqlite:\(directory.appendingPathComponent("queue.sqlite3").path)"],
            output: stdoutURL)
        deadline = Date().addingTimeInterval(timeout)
    }

    var stderrText: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Nil while it runs within its time.
    func poll() -> Outcome? {
        if child.isRunning {
            guard Date() >= deadline else { return nil }
            child.signal(SIGKILL)
            child.wait()
            return .timedOut
        }
        return .exited(
            child.shellStatus, stdout: (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
            stderr: stderrText)
    }

    func wait() -> Outcome {
        while true {
            if let outcome = poll() { return outcome }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
