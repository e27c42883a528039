import Foundation
import XCTest

/// A child started with posix_spawn and reaped with waitpid. Foundation's `Process` lost track of a
/// worker that crashed while its backtracer outlived it: `waitUntilExit` never returned and the
/// soak hung (as `KilnProcess.runWithTimeout` notes for `pg_ctl`).
final class SpawnedChild {
    enum Ending: Equatable {
        case exit(Int32)
        case signal(Int32)
    }

    let pid: pid_t
    private(set) var ending: Ending?

    /// `command` runs from `directory` (through `/bin/sh`, which changes into it first), its
    /// standard output and error appended to `output`.
    init(_ command: [String], in directory: URL, environment: [String: String], output: URL) throws {
        let shell = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path] + command
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = shell.map { strdup($0) } + [nil]
        let envp =
            ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { strdup("\($0)=\($1)") } + [
                nil
            ]
        defer { for p in argv + envp { free(p) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        self.pid = pid
    }

    var isRunning: Bool {
        guard ending == nil else { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        record(status)
        return false
    }

    func signal(_ number: Int32) {
        if isRunning { kill(pid, number) }
    }

    func wait() {
        var status: Int32 = 0
        while ending == nil {
            if waitpid(pid, &status, 0) == pid {
                record(status)
            } else if errno != EINTR {
                ending = .exit(-1)
            }
        }
    }

    /// The exit status, or 128 + the signal, as a shell reports it.
    var shellStatus: Int32 {
        switch ending {
        case .exit(let code): code
        case .signal(let number): 128 + number
        case nil: -1
        }
    }

    private func record(_ status: Int32) {
        ending = status & 0x7f == 0 ? .exit((status >> 8) & 0xff) : .signal(status & 0x7f)
    }
}
