import Foundation

/// One `kiln` run with its exit status, peak RSS, wall time and stderr (kept in a file, so a
/// long message never blocks a pipe): what the limit and memory-budget tests assert on.
struct MeasuredRun {
    let status: Int32
    let peakKiB: Int
    let seconds: Double
    let stderr: String
}

extension TemporaryDirectoryTestCase {
    func run(_ args: [String]) throws -> MeasuredRun {
        let errorPath = directory.appendingPathComponent("stderr-\(UUID().uuidString).txt").path
        let start = Date()
        let (status, peak) = try KilnProcess.runMeasuringPeakMemory(args, stderrPath: errorPath)
        return MeasuredRun(
            status: status, peakKiB: peak, seconds: Date().timeIntervalSince(start),
            stderr: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }
}
