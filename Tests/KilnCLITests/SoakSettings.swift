import Foundation
import KilnTestSupport
import XCTest

/// How long and how hard the soak runs, from the environment (see docs/security.md, "Soak").
struct SoakSettings {
    var seconds: Double
    var jobs: Int
    /// How long the queue may take to drain once feeding and faults stop.
    var drainSeconds: Double
    /// Address-space limit for every kiln process, so a memory bomb fails that process instead of
    /// pushing a shared machine into its out-of-memory killer.
    var memoryMiB: Int
    var seed: UInt64
    /// Hostile fixtures left out (file names without `.json`), to develop past one that wrecks a run.
    var excluded: Set<String>
    /// Every how many enqueues one is hostile.
    var hostileEvery: Int
    var keepDirectory: Bool
    var reportPath: String

    static func fromEnvironment() throws -> SoakSettings {
        let env = ProcessInfo.processInfo.environment
        guard env["KILN_SOAK"] == "1" else {
            throw XCTSkip("the soak is opt-in: KILN_SOAK=1 (scripts/soak.sh)")
        }
        func number(_ name: String, _ fallback: Double) -> Double {
            env[name].flatMap(Double.init) ?? fallback
        }
        return SoakSettings(
            seconds: number("KILN_SOAK_SECONDS", 600), jobs: Int(number("KILN_SOAK_JOBS", 300)),
            drainSeconds: number("KILN_SOAK_DRAIN_SECONDS", 300),
            memoryMiB: Int(number("KILN_SOAK_MEMORY_MB", 4096)),
            seed: env["KILN_SOAK_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max)),
            excluded: Set((env["KILN_SOAK_EXCLUDE"] ?? "").split(separator: ",").map(String.init)),
            hostileEvery: max(2, Int(number("KILN_SOAK_HOSTILE_EVERY", 3))),
            keepDirectory: env["KILN_SOAK_KEEP"] == "1",
            reportPath: env["KILN_SOAK_REPORT"]
                ?? KilnProcess.repositoryRoot.appendingPathComponent(".build/soak-report.txt").path)
    }
}

/// Control characters and long messages kept out of the report.
func oneLine(_ text: String, limit: Int = 240) -> String {
    let flat = String(
        text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : Character($0) }
    )
    .trimmingCharacters(in: .whitespaces)
    return flat.count > limit ? String(flat.prefix(limit)) + "…" : flat
}
