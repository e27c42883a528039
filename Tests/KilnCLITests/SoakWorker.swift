import Foundation
import XCTest

/// One of the soak's two workers across its restarts: each incarnation logs to its own file.
final class SoakWorker {
    private let name: String
    private unowned let test: SoakTests
    private var child: SpawnedChild?
    private var incarnation = 0
    private var expectedExit = false
    private var stoppingSince: Date?

    init(name: String, test: SoakTests) throws {
        self.name = name
        self.test = test
        try start()
    }

    var currentName: String { "\(name)-\(incarnation)" }
    var isRunning: Bool { child?.isRunning ?? false }
    var isStopping: Bool { stoppingSince != nil }
    var stoppingFor: Double { stoppingSince.map { Date().timeIntervalSince($0) } ?? 0 }

    func start() throws {
        incarnation += 1
        expectedExit = false
        stoppingSince = nil
        child = try SpawnedChild(
            test.boundedCommand([
                "worker", "--name", currentName, "--concurrency", "2", "--threads", "1", "--grace", "10",
            ]), in: test.directory, environment: test.environment,
            output: test.directory.appendingPathComponent("\(currentName).log"))
    }

    /// SIGKILL, and waits for the exit (the kernel delivers it whatever the worker is doing).
    func killNow() {
        guard let child, child.isRunning else { return }
        expectedExit = true
        stoppingSince = nil
        child.signal(SIGKILL)
        child.wait()
    }

    func terminate() {
        guard let child, child.isRunning else { return }
        expectedExit = true
        stoppingSince = Date()
        child.signal(SIGTERM)
    }

    /// For an incarnation stopped by SIGTERM: how it ended, unless with 143 as a worker should.
    func terminatedWithout143() -> String? {
        guard let child, !child.isRunning, stoppingSince != nil else { return nil }
        stoppingSince = nil
        guard child.ending != .exit(143) else { return nil }
        return "\(currentName) ended with \(child.shellStatus) after SIGTERM, not 143"
    }

    /// For an exited incarnation the harness did not stop: how it ended and the cause its log gives.
    /// Called once per exit; marks the exit as seen.
    func unexpectedDeath() -> String? {
        guard let child, !child.isRunning, !expectedExit else { return nil }
        expectedExit = true
        let how: String
        switch child.ending {
        case .signal(let number): how = "signal \(number)"
        case .exit(let code): how = "exit \(code)"
        case nil: how = "?"
        }
        let lines = test.workerLog(currentName).split(separator: "\n")
        let cause =
            lines.lazy.compactMap { line in
                ["Swift runtime failure", "Fatal error", "Program crashed"].lazy.compactMap {
                    line.range(of: $0)
                }
                .first.map { String(line[$0.lowerBound...]) }
            }.first ?? lines.last.map(String.init) ?? "no log"
        return "\(currentName) died (\(how)): \(oneLine(cause))"
    }
}
