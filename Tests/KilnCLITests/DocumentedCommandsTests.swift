import Foundation
import KilnTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Every command in the README's and the docs' `sh` blocks runs as written on a fresh checkout:
/// each file's blocks, in order, in a scratch copy of `jobs/` and `docs/` with its own queue,
/// state and configuration folders. Commands that serve or watch until stopped are run for a
/// few seconds and stopped as a user stops them; the few that build, benchmark or soak for
/// minutes are listed in `notRunHere` with the reason, and a line nobody classified fails.
///
/// The kiln under test is the test build: `KILN_TEST_DRAFT_SCALE` renders every job at a tenth
/// of its size (the same timeline, roots, formats and queue), so the README's 1080p renders and
/// the queue's `jobs/*.json` take seconds.
final class DocumentedCommandsTests: ScratchDirectoryTestCase {
    struct Command {
        let file: String
        let line: Int
        let text: String
    }

    /// Lines that are not run, by what they start with (after `$BIN/`), and why.
    static let notRunHere: [(prefix: String, reason: String)] = [
        ("BIN=$(swift build", "the test sets BIN to the build under test"),
        (
            "bash scripts/",
            "the set-up scripts are what CI itself runs (test.sh) or take minutes (showcase, peers)"
        ),
        ("sudo scripts/soak.sh", "the ten-minute soak: SoakTests runs it in short"),
        ("KILN_SOAK_", "the soak again"),
        ("KILN_BIN=", "the peers comparison installs Python packages and takes minutes"),
        ("kiln-bench", "benchmarks take minutes; kiln-bench is run by the performance docs' procedure"),
    ]

    /// Commands that run until stopped, and the signal a user stops them with.
    static func stopSignal(_ text: String) -> Int32? {
        if text.contains(" studio ") || text.contains("--watch") { return SIGINT }
        if text.contains(" worker"), !text.contains("--drain"), !text.contains("--once") { return SIGTERM }
        return nil
    }

    static func commands(in file: String, text: String) -> [Command] {
        var commands: [Command] = []
        var inBlock = false
        var pending: (line: Int, text: String)?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            if line.hasPrefix("```") {
                inBlock = !inBlock && (line == "```sh" || line == "```bash")
                continue
            }
            guard inBlock else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if pending == nil, trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            var joined = (pending?.text ?? "") + line
            let start = pending?.line ?? index + 1
            if joined.hasSuffix("\\") {
                joined.removeLast()
                pending = (start, joined)
                continue
            }
            pending = nil
            commands.append(Command(file: file, line: start, text: joined))
        }
        return commands
    }

    func testEveryCommandInTheReadmeAndDocsRunsAsWritten() throws {
        let root = KilnProcess.repositoryRoot
        let docs = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("docs").path
        )
        .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var ran = 0
        for file in ["README.md"] + docs {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            let commands = Self.commands(in: file, text: text)
            guard !commands.isEmpty else { continue }
            let checkout = try freshCheckout(named: file)
            for command in commands {
                let body = command.text.replacingOccurrences(of: "$BIN/", with: "")
                if let skip = Self.notRunHere.first(where: { body.hasPrefix($0.prefix) }) {
                    XCTAssertFalse(skip.reason.isEmpty)
                    continue
                }
                try run(command, in: checkout)
                ran += 1
            }
        }
        XCTAssertGreaterThan(ran, 40, "the README and docs hold that many runnable commands")
    }

    /// A scratch folder as a fresh checkout has it for these commands: jobs/ (the podcast's
    /// voice made) and docs/, and its own home, state and queue.
    private func freshCheckout(named file: String) throws -> URL {
        let folder = directory.appendingPathComponent(file.replacingOccurrences(of: "/", with: "-"))
        let root = KilnProcess.repositoryRoot
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for item in ["jobs", "docs", "README.md"] {
            try FileManager.default.copyItem(
                at: root.appendingPathComponent(item), to: folder.appendingPathComponent(item))
        }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("home"), withIntermediateDirectories: true)
        return folder
    }

    private func run(_ command: Command, in checkout: URL) throws {
        let bin = KilnProcess.binary.deletingLastPathComponent().path
        let home = checkout.appendingPathComponent("home").path
        let environment = [
            "BIN": bin, "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config",
            "XDG_CACHE_HOME": home + "/cache", "KILN_TEST_DRAFT_SCALE": "0.1",
        ]
        let where_ = "\(command.file):\(command.line): \(command.text)"
        let (process, out, err) = try KilnProcess.launch(
            URL(fileURLWithPath: "/bin/bash"), ["-c", "set -o pipefail; unset KILN_QUEUE; " + command.text],
            cwd: checkout,
            environment: environment)
        if let signal = Self.stopSignal(command.text) {
            Thread.sleep(forTimeInterval: 3)
            XCTAssertTrue(process.isRunning, "\(where_): stopped by itself")
            // bash -c runs the last command in place (exec), so the signal reaches kiln itself.
            kill(process.processIdentifier, signal)
            XCTAssertTrue(KilnProcess.waitForExit(process, timeout: 60), "\(where_): did not stop")
            let result = KilnProcess.collect(process, out, err)
            XCTAssertTrue(
                [0, 130, 143].contains(result.status), "\(where_): exit \(result.status)\n\(result.stderr)")
            XCTAssertFalse(result.stderr.contains("error"), "\(where_)\n\(result.stderr)")
            return
        }
        // Read while it runs (a chatty command would fill a pipe), killed if it hangs.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: watchdog)
        let result = KilnProcess.collect(process, out, err)
        watchdog.cancel()
        XCTAssertEqual(result.status, 0, "\(where_)\n\(result.stderr)")
    }
}
