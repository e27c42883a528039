import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 20, part 5: every attempt renders in a process of its own, so a job that crashes or
/// hangs its render is charged alone; a worker leaves no temp files or processes behind; signals
/// during loading are honoured; `--drain` waits for a dead worker's job.
final class CrashIsolationTests: QueueTestCase {
    static let hostile = KilnProcess.repositoryRoot.appendingPathComponent(
        "Tests/KilnCLITests/Fixtures/Hostile")

    /// The fixture `name`, copied into the test directory with its output (`out/OUTPUT`) renamed.
    func hostileJob(_ name: String, output: String, as copy: String) throws -> String {
        let text = try String(
            contentsOf: Self.hostile.appendingPathComponent("\(name).json"), encoding: .utf8)
        return try write(
            "\(copy).json", text.replacingOccurrences(of: "\"out/\(output)\"", with: "\"out/\(copy).mp4\""))
    }

    /// Processes whose working directory is this test's directory: a worker's render processes
    /// and anything they started (the Swift runtime's `swift-backtrace`) inherit it.
    func processesInTestDirectory() -> [String] {
        let pids =
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap(Int32.init) ?? []
        let here = [directory.path, directory.resolvingSymlinksInPath().path]
        return pids.compactMap { pid in
            guard pid != getpid(),
                let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"),
                here.contains(cwd)
            else { return nil }
            let cmdline = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            return "\(pid): " + String(decoding: cmdline.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
        }
    }

    func job(named name: String) throws -> [String: Any] {
        try XCTUnwrap(try status().first { $0["name"] as? String == name }, "job \(name)")
    }

    func testTrappingJobsAreChargedAloneAndTheGoodJobCompletes() throws {
        var files: [String] = []
        for i in 0..<3 {
            files.append(try hostileJob("trap-during-render", output: "trap.mp4", as: "trap\(i)"))
        }
        files.append(try writeJob("good", frames: 30))
        for i in 3..<6 {
            files.append(try hostileJob("trap-during-render", output: "trap.mp4", as: "trap\(i)"))
        }
        XCTAssertEqual(try kiln(["enqueue", "--max-attempts", "1"] + files).status, 0)

        let worker = try kiln(
            ["worker", "--concurrency", "2", "--drain", "--threads", "1"],
            environment: ["KILN_FAULT_TRAP_ON_JOB": "trap-during-render"])
        XCTAssertEqual(worker.status, 0, worker.stderr)
        let good = try job(named: "good")
        XCTAssertEqual(good["state"] as? String, "completed", "\(good)\n\(worker.stderr)")
        XCTAssertEqual((good["attempts"] as? [Any])?.count, 1, "no crash charged to it: \(good)")
        for i in 0..<6 {
            let trap = try job(named: "trap\(i)")
            XCTAssertEqual(trap["state"] as? String, "discarded", "\(trap)")
            let error = trap["error"] as? String ?? ""
            XCTAssertTrue(error.hasPrefix("crashed: the render process"), error)
            XCTAssertTrue(
                error.contains("killed by signal \(SIGILL)") || error.contains("signal \(SIGTRAP)"), error)
        }
        try assertQueueSound(frames: ["good": 30])
        XCTAssertEqual(processesInTestDirectory(), [], "no render or backtrace process outlives the worker")
    }

    /// The render process notices its worker's death (its stdin closes), stops, and removes its
    /// own temp file, instead of rendering on as an orphan.
    func testARenderProcessDoesNotOutliveItsWorkerKilledWithMinusNine() throws {
        XCTAssertEqual(
            try kiln(["enqueue", try writeJob("long", frames: 240, size: (640, 360), slow: true)]).status, 0)
        let doomed = try startWorker(["--once", "--threads", "1"], name: "doomed")
        try waitUntil(60, "the render to be under way") {
            try (status().first?["progress"] as? Double ?? 0) > 0.05
        }
        XCTAssertEqual(processesInTestDirectory().count, 2, "the worker and its render process")
        kill(doomed.processIdentifier, SIGKILL)
        doomed.waitUntilExit()
        try waitUntil(10, "the orphaned render process to stop") { processesInTestDirectory().isEmpty }
        try waitUntil(5, "its temp file to be removed") {
            try FileManager.default.contentsOfDirectory(atPath: outputs.path).isEmpty
        }
    }

    func testAnAttemptThatMakesNoProgressIsKilledAsStalled() throws {
        let file = try hostileJob("slow-to-load", output: "slow-to-load.mp4", as: "stuck")
        XCTAssertEqual(try kiln(["enqueue", "--max-attempts", "1", file]).status, 0)
        let started = Date()
        let worker = try kiln(
            ["worker", "--drain", "--stall-seconds", "1.5"], environment: ["KILN_FAULT_LOAD_DELAY": "120"])
        XCTAssertEqual(worker.status, 0, worker.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "the watchdog, not the load, ended it")
        let stuck = try job(named: "stuck")
        XCTAssertEqual(stuck["state"] as? String, "discarded", "\(stuck)")
        XCTAssertEqual(
            stuck["error"] as? String, "stalled: no progress for 1.5 s; the render process was killed")
        try assertQueueSound(frames: [:])
        XCTAssertEqual(processesInTestDirectory(), [])
    }

    /// A worker that stopped answering (frozen, or dead where the reaper cannot see its process)
    /// holds its job's lease until it expires; a draining worker waits for that and renders it.
    func testDrainWaitsForAJobWhoseLeaseIsNoLongerRenewed() throws {
        let file = try hostileJob("slow-to-load", output: "slow-to-load.mp4", as: "orphaned")
        XCTAssertEqual(try kiln(["enqueue", file]).status, 0)
        let frozen = try startWorker(
            ["--once"], name: "frozen", environment: ["KILN_FAULT_LOAD_DELAY": "120"])
        try waitUntil(30, "the frozen worker to claim the job") { try states() == ["running"] }
        kill(frozen.processIdentifier, SIGSTOP)
        // Long enough for the lease to show it is no longer renewed (two heartbeats).
        Thread.sleep(forTimeInterval: 1.2)
        defer {
            kill(frozen.processIdentifier, SIGKILL)
            kill(frozen.processIdentifier, SIGCONT)
            frozen.waitUntilExit()
        }
        let rescuer = try kiln(["worker", "--drain"])
        XCTAssertEqual(rescuer.status, 0, rescuer.stderr)
        XCTAssertTrue(rescuer.stderr.contains("reclaimed 1 job"), rescuer.stderr)
        let orphaned = try job(named: "orphaned")
        XCTAssertEqual(orphaned["state"] as? String, "completed", "\(orphaned)\n\(rescuer.stderr)")
        XCTAssertEqual(
            (orphaned["attempts"] as? [[String: Any]])?.map { $0["outcome"] as? String },
            ["crashed", "completed"])
    }

    func testSignalDuringLoadingStopsRenderWithTheSignalsStatus() throws {
        let file = try hostileJob("slow-to-load", output: "slow-to-load.mp4", as: "loading")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        for signal in [SIGINT, SIGTERM] {
            let (process, out, err) = try KilnProcess.start(
                ["render", file], cwd: directory, environment: ["KILN_FAULT_LOAD_DELAY": "60"])
            Thread.sleep(forTimeInterval: 1)
            let sent = Date()
            kill(process.processIdentifier, signal)
            XCTAssertTrue(KilnProcess.waitForExit(process, timeout: 20), "render ignored signal \(signal)")
            let result = KilnProcess.collect(process, out, err)
            XCTAssertEqual(process.terminationReason, .exit, "exited, not killed by signal \(signal)")
            XCTAssertEqual(result.status, 128 + signal, result.stderr)
            XCTAssertTrue(result.stderr.contains("interrupted while loading"), result.stderr)
            XCTAssertLessThan(Date().timeIntervalSince(sent), 5)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outputs.path), [])
    }

    /// Text layout happens as each layer is decoded; a signal used to be honoured only after
    /// every layer was laid out (18.9 s for 40 large text layers), now at the next layer.
    func testSignalDuringTextLayoutStopsAtTheNextLayer() throws {
        let words = Array(repeating: "kiln bakes timelines into video, frame by frame;", count: 200)
            .joined(separator: " ")
        let layers = (0..<60).map { index in
            #"{"type": "text", "text": "\#(index) \#(words)", "size": 18, "width": 1400, "position": [0, 0]}"#
        }
        let file = try write(
            "layout.json",
            #"{"kiln": 1, "output": {"path": "out/layout.mp4", "width": 320, "height": 180, "fps": 10, "duration": 0.2}, "layers": [\#(layers.joined(separator: ", "))]}"#
        )
        let timed = Date()
        let full = try KilnProcess.run(["validate", file], cwd: directory)
        let loadSeconds = Date().timeIntervalSince(timed)
        XCTAssertEqual(full.status, 0, full.stderr)
        let (process, out, err) = try KilnProcess.start(["render", file], cwd: directory)
        Thread.sleep(forTimeInterval: min(1, loadSeconds / 4))
        let sent = Date()
        kill(process.processIdentifier, SIGINT)
        XCTAssertTrue(KilnProcess.waitForExit(process, timeout: 60), "render ignored SIGINT")
        let result = KilnProcess.collect(process, out, err)
        let stopped = Date().timeIntervalSince(sent)
        XCTAssertEqual(result.status, 128 + SIGINT, result.stderr)
        XCTAssertTrue(result.stderr.contains("interrupted while loading"), result.stderr)
        // Loading all layers takes `loadSeconds`; stopping must take about one layer's share.
        XCTAssertLessThan(stopped, max(0.5, loadSeconds / 4), "took \(stopped) s of a \(loadSeconds) s load")
    }

    /// A crashed `kiln render` leaves its temp file; the next render of the same output removes it.
    func testRenderRemovesTheTempFileACrashedRenderLeft() throws {
        let file = try writeJob("again", frames: 3)
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let host = String(ProcessInfo.processInfo.hostName.filter { $0 != "/" && $0 != "@" }.prefix(64))
        let stale = outputs.appendingPathComponent(
            ".again.mp4.kiln-\(gone.processIdentifier)-1f2e@\(host).mp4")
        XCTAssertTrue(FileManager.default.createFile(atPath: stale.path, contents: Data(count: 4096)))
        let result = try KilnProcess.run(["render", file], cwd: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outputs.path), ["again.mp4"])
    }
}
