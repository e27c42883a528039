import Foundation
import XCTest

/// Runs a shell on a script for the completion tests; skips when the shell is not installed
/// (scripts/install-deps.sh --test installs zsh and fish).
enum ShellRunner {
    static func path(_ shell: String) throws -> String {
        for directory in ["/usr/bin", "/bin", "/usr/local/bin"] {
            let candidate = "\(directory)/\(shell)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw XCTSkip("\(shell) is not installed")
    }

    /// The shell's exit status and what it printed (stdout and stderr together).
    static func run(_ shell: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path(shell))
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Writes `text` to a temporary file, returning its path.
    static func temporaryFile(_ text: String, name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(getpid())-\(name)")
        try Data(text.utf8).write(to: url)
        return url.path
    }
}
