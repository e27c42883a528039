import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One run of an operator's shell command (`/bin/sh -c`), fed `stdin`, its output on the
/// worker's stderr, killed when it outlives its time.
struct HookCommand {
    let command: String
    let timeoutSeconds: Double

    /// nil when it exited 0; otherwise what went wrong ("exited 3", "timed out after 30 s").
    func run(stdin body: Data, environment extra: [String: String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        do {
            try process.run()
        } catch {
            return "could not start: \(error)"
        }
        // A command that never reads its input must not block the worker on a full pipe.
        let writer = Thread {
            try? input.fileHandleForWriting.write(contentsOf: body)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let deadline = ProcessInfo.processInfo.systemUptime + timeoutSeconds
        while process.isRunning && ProcessInfo.processInfo.systemUptime < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let grace = ProcessInfo.processInfo.systemUptime + 2
            while process.isRunning && ProcessInfo.processInfo.systemUptime < grace {
                Thread.sleep(forTimeInterval: 0.02)
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return "timed out after \(String(format: "%g", timeoutSeconds)) s and was stopped"
        }
        process.waitUntilExit()
        switch process.terminationReason {
        case .exit where process.terminationStatus == 0: return nil
        case .exit: return "exited \(process.terminationStatus)"
        case .uncaughtSignal: return "was killed by signal \(process.terminationStatus)"
        @unknown default: return "ended with status \(process.terminationStatus)"
        }
    }
}
