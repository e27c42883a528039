import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `kiln` binary as a user would.
struct KilnProcess {
    static let repositoryRoot = ShippedJobs.repositoryRoot(testFile: #filePath)

    /// `kiln` is built next to the test bundle by `swift build` / `swift test`.
    static var binary: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Linux the test runner is .build/<config>/KilnPackageTests.xctest.
        if dir.lastPathComponent.hasSuffix(".xctest") { dir = dir.deletingLastPathComponent() }
        return dir.appendingPathComponent("kiln")
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func start(_ args: [String], cwd: URL = repositoryRoot, environment: [String: String] = [:]) throws
        -> (Process, Pipe, Pipe)
    {
        try launch(binary, args, cwd: cwd, environment: environment)
    }

    static func launch(_ executable: URL, _ args: [String], cwd: URL, environment: [String: String] = [:])
        throws
        -> (Process, Pipe, Pipe)
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = args
        process.currentDirectoryURL = cwd
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    /// Reads both pipes to the end (stderr on another thread, so a child that fills one pipe
    /// while we wait on the other cannot deadlock) and waits for the exit.
    static func collect(_ process: Process, _ out: Pipe, _ err: Pipe) -> Result {
        nonisolated(unsafe) var stderr = Data()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            stderr = err.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Waits for `process` to exit, killing it (SIGKILL) once `timeout` seconds have passed, so a
    /// hung child fails a test instead of hanging the run. False when it had to be killed.
    static func waitForExit(_ process: Process, timeout: Double) -> Bool {
        final class Watch: @unchecked Sendable {
            let lock = NSLock()
            var exited = false
            var killed = false
        }
        let watch = Watch()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            watch.lock.lock()
            defer { watch.lock.unlock() }
            if !watch.exited {
                watch.killed = true
                kill(pid, SIGKILL)
            }
        }
        process.waitUntilExit()
        watch.lock.lock()
        defer { watch.lock.unlock() }
        watch.exited = true
        return !watch.killed
    }

    static func run(_ args: [String], cwd: URL = repositoryRoot, environment: [String: String] = [:]) throws
        -> Result
    {
        let (process, out, err) = try start(args, cwd: cwd, environment: environment)
        return collect(process, out, err)
    }

    /// Runs kiln under GNU time with stdout discarded (stderr to `stderrPath`, or discarded) and
    /// returns its exit status and its own peak resident set (KiB).
    ///
    /// Not `wait4` on a posix_spawn child: glibc spawns with CLONE_VM, and Linux records the
    /// shared pre-exec memory's high-water mark (this test process's, hundreds of MiB late in the
    /// suite) in the child's rusage. GNU time forks, so its child starts small.
    static func runMeasuringPeakMemory(_ args: [String], stderrPath: String? = nil) throws -> (
        status: Int32, peakKiB: Int
    ) {
        let rssPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("kiln-rss-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: rssPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 2, stderrPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let time = "/usr/bin/time"
        let argv = ([time, "-f", "%M", "-o", rssPath, binary.path] + args).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, time, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0
        // GNU time exits with the command's status (128 + N after a signal, with a line saying so
        // before the figure).
        let report = (try? String(contentsOfFile: rssPath, encoding: .utf8)) ?? ""
        let peak = report.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), peak ?? Int.max)
    }

    /// Runs a helper program with its output discarded and returns its exit status, or nil when
    /// it did not finish within `timeout` seconds (it is killed then). Spawned and reaped with
    /// posix_spawn/waitpid rather than `Process`, which lost track of a child whose own children
    /// outlive it (`pg_ctl restart` leaves a server running), leaving a zombie and a hung wait.
    static func runWithTimeout(_ path: String, _ args: [String], timeout: Double) throws -> Int32? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for fd in [Int32(1), 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0) }
        let argv = ([path] + args).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Date() < deadline else {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return nil
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    static func tool(_ path: String, _ args: [String]) throws -> Result? {
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        let (process, out, err) = try launch(URL(fileURLWithPath: path), args, cwd: repositoryRoot)
        return collect(process, out, err)
    }
}
