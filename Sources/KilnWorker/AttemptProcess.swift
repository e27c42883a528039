import Foundation
import KilnExport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The worker's side of one attempt: spawns the render process (`kiln __render-attempt`), sends it
/// the request on its stdin, relays its progress to the heartbeat and its commit question to the
/// lease, forwards a stop or a cancel to it, kills it when it makes no progress for
/// `stallSeconds`, and turns its death into an outcome charged to this job only.
///
/// Pipe protocol, one line per message. Worker → render process (fd 0): the request as JSON, then
/// `commit yes|no` answers and `cancel CODE`. Render process → worker (fd 3): `progress F`,
/// `log TEXT`, `commit?`, `result JSON`.
final class AttemptProcess: Sendable {
    struct Settings: Sendable {
        var executable: String
        var stallSeconds: Double
        /// How long a render process told to stop may take before it is killed.
        var stopGraceSeconds: Double
    }

    private let settings: Settings
    private let heartbeat: Heartbeat
    private let flag: CancellationFlag
    private let log: @Sendable (String) -> Void
    private let state = Mutex(
        (
            lastActivity: ProcessInfo.processInfo.systemUptime, result: nil as AttemptOutcome?,
            readerDone: false
        ))

    /// Each progress report of the render process, 0…1, as it arrives.
    private let progress: (@Sendable (Double) -> Void)?

    init(
        settings: Settings, heartbeat: Heartbeat, flag: CancellationFlag,
        log: @escaping @Sendable (String) -> Void, progress: (@Sendable (Double) -> Void)? = nil
    ) {
        self.settings = settings
        self.heartbeat = heartbeat
        self.flag = flag
        self.log = log
        self.progress = progress
    }

    func run(_ request: AttemptRequest) -> AttemptOutcome {
        let body: Data
        do {
            body = try JSONEncoder().encode(request)
        } catch {
            return .retryable("could not encode the attempt for its render process: \(error)")
        }
        let spawned = Self.spawning.withLock { _ -> Result<(pid_t, Pipes), SpawnFailure> in
            guard let toChild = Self.pipe(), let fromChild = Self.pipe() else {
                return .failure(SpawnFailure(reason: "no pipes: \(String(cString: strerror(errno)))"))
            }
            let pipes = Pipes(toChild: toChild, fromChild: fromChild)
            return spawn(stdin: toChild.read, reports: fromChild.write).map { ($0, pipes) }
                .mapError { failure in
                    for fd in [toChild.read, toChild.write, fromChild.read, fromChild.write] { close(fd) }
                    return failure
                }
        }
        let pid: pid_t, toChild: (read: Int32, write: Int32), fromChild: (read: Int32, write: Int32)
        switch spawned {
        case .success(let (spawnedPID, pipes)):
            (pid, toChild, fromChild) = (spawnedPID, pipes.toChild, pipes.fromChild)
        case .failure(let reason):
            return .retryable("could not start the render process \(settings.executable): \(reason)")
        }
        close(toChild.read)
        close(fromChild.write)
        let writer = LineWriter(fd: toChild.write)
        writer.send(String(decoding: body, as: UTF8.self))
        let reader = Thread { [self] in
            readReports(from: fromChild.read, answers: writer)
            state.withLock { $0.readerDone = true }
        }
        reader.name = "kiln-attempt-reader"
        reader.start()

        let ending = supervise(pid, writer: writer)
        // The reader ends at end of file, which comes when the process (and anything it started)
        // has closed its end; bounded, so a stray descendant holding it cannot stall the slot.
        let deadline = ProcessInfo.processInfo.systemUptime + 2
        while !state.withLock({ $0.readerDone }) && ProcessInfo.processInfo.systemUptime < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        writer.close()
        StaleTemporaryFiles.remove(
            in: URL(fileURLWithPath: request.job.output).deletingLastPathComponent(), leftBy: pid, log: log)
        return outcome(of: ending, pid: pid)
    }

    /// How the process ended, as `supervise` saw it.
    enum Ending {
        case exited(status: Int32)
        case stalled
        case stopped(code: Int32)
    }

    private func supervise(_ pid: pid_t, writer: LineWriter) -> Ending {
        var forwardedAt: Double?
        var stalled = false
        while true {
            var status: Int32 = 0
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid || (waited < 0 && errno != EINTR) {
                if stalled { return .stalled }
                if let code = flag.cancelledBySignal, forwardedAt != nil, state.withLock({ $0.result }) == nil
                {
                    return .stopped(code: code)
                }
                return .exited(status: status)
            }
            let now = ProcessInfo.processInfo.systemUptime
            if let code = flag.cancelledBySignal {
                if forwardedAt == nil {
                    forwardedAt = now
                    // A stop signal is passed on as that signal; a cancel or a lost lease, which
                    // are not signals, as a message.
                    if code > 0 { kill(pid, code) } else { writer.send("cancel \(code)") }
                } else if let since = forwardedAt, now - since > settings.stopGraceSeconds {
                    kill(pid, SIGKILL)
                }
            } else if !stalled, now - state.withLock({ $0.lastActivity }) > settings.stallSeconds {
                stalled = true
                kill(pid, SIGKILL)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private func outcome(of ending: Ending, pid: pid_t) -> AttemptOutcome {
        switch ending {
        case .stalled:
            return .retryable(
                "stalled: no progress for \(Self.seconds(settings.stallSeconds)); the render process was killed"
            )
        case .stopped(let code):
            return .cancelled(code: code)
        case .exited(let status):
            let signal = status & 0x7f
            if signal == 0, let result = state.withLock({ $0.result }) { return result }
            if signal != 0 && signal != 0x7f {
                return .retryable(
                    "crashed: the render process (pid \(pid)) was killed by signal \(signal) "
                        + "(\(String(cString: strsignal(signal))))")
            }
            return .retryable(
                "crashed: the render process (pid \(pid)) exited with status \((status >> 8) & 0xff) without a result"
            )
        }
    }

    private func readReports(from fd: Int32, answers: LineWriter) {
        defer { close(fd) }
        let lines = LineReader(fd: fd)
        while let line = lines.next() {
            let (verb, rest) = Self.split(line)
            switch verb {
            case "progress":
                if let fraction = Double(rest), fraction.isFinite {
                    heartbeat.report(min(1, max(0, fraction)))
                    progress?(min(1, max(0, fraction)))
                }
            case "log":
                log(rest)
            case "commit?":
                answers.send(heartbeat.renewNow() ? "commit yes" : "commit no")
            case "result":
                let outcome = try? JSONDecoder().decode(AttemptOutcome.self, from: Data(rest.utf8))
                state.withLock { $0.result = outcome }
            default:
                continue
            }
            state.withLock { $0.lastActivity = ProcessInfo.processInfo.systemUptime }
        }
    }

    static func split(_ line: String) -> (verb: String, rest: String) {
        guard let space = line.firstIndex(of: " ") else { return (line, "") }
        return (String(line[..<space]), String(line[line.index(after: space)...]))
    }

    private func spawn(stdin: Int32, reports: Int32) -> Result<pid_t, SpawnFailure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        // Nothing should reach stdout; what does goes to the worker's log with the rest.
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        posix_spawn_file_actions_adddup2(&actions, reports, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var environment = ProcessInfo.processInfo.environment
        // The Swift runtime's crash reporter would start a `swift-backtrace` process per crash
        // and keep the dying render alive while it symbolicates; the worker reports the signal.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        // argv[0] is the file's real name, so `ps` shows what runs (the path may be /proc/self/exe).
        let name = URL(fileURLWithPath: settings.executable).resolvingSymlinksInPath().path
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(name), strdup("__render-attempt"), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, settings.executable, &actions, &attributes, argv, envp)
        guard result == 0 else { return .failure(SpawnFailure(reason: String(cString: strerror(result)))) }
        return .success(pid)
    }

    struct Pipes {
        var toChild: (read: Int32, write: Int32)
        var fromChild: (read: Int32, write: Int32)
    }

    struct SpawnFailure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// Both ends close on exec, so no other attempt's render process inherits them (it would hold
    /// this attempt's pipes open past its death). Pipe creation and spawning are serialized, so no
    /// spawn happens between a `pipe` and its `fcntl`.
    private static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    static let spawning = Mutex(())

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
