import Foundation
import Synchronization

/// The repository's shipped jobs, complete: the podcast demo's voice and transcript are made by
/// `scripts/make-podcast.py` (espeak-ng) rather than checked in, so a fresh clone running
/// `swift test --filter …` makes them here, once per process, before any test reads `jobs/`.
public enum ShippedJobs {
    /// The repository root for a test file at `filePath` (Tests/<Target>/<File>.swift), with
    /// the podcast's generated files in place.
    public static func repositoryRoot(testFile filePath: String) -> URL {
        let root = URL(fileURLWithPath: filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        podcastMade.withLock { made in
            if !made { made = makePodcast(in: root) }
        }
        return root
    }

    private static let podcastMade = Mutex(false)

    /// True when the files exist (or were made); a machine without python3 or espeak-ng leaves
    /// them missing and the tests that need them say so.
    private static func makePodcast(in root: URL) -> Bool {
        let folder = root.appendingPathComponent("jobs/podcast")
        let files = ["voice.wav", "transcript.json"].map { folder.appendingPathComponent($0).path }
        if files.allSatisfy(FileManager.default.fileExists(atPath:)) { return true }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/make-podcast.py").path]
        process.currentDirectoryURL = root
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            return false
        }
        return process.terminationStatus == 0
    }
}
