import Foundation
import XCTest

/// Violations by invariant, so the report says which promise broke, for which jobs and why.
struct SoakFindings {
    static let invariants = [
        "good jobs completed exactly once with a valid MP4",
        "hostile jobs refused or failed with their reason",
        "every accepted job ended",
        "workers never died unless the harness killed them",
        "signals honoured (SIGTERM exits within 30 s)",
        "enqueue never hangs",
        "no temp files left",
        "database integrity_check ok",
        "no orphan processes",
    ]

    private(set) var violations: [String: [String]] = [:]
    var notes: [String] = []

    mutating func violate(_ invariant: String, _ detail: String) {
        precondition(Self.invariants.contains(invariant), invariant)
        violations[invariant, default: []].append(detail)
    }

    func report(header: [String]) -> String {
        var lines = header + notes.map { "note: \($0)" }
        for invariant in Self.invariants {
            let found = violations[invariant] ?? []
            lines.append(
                "\(found.isEmpty ? "ok  " : "FAIL") \(invariant)\(found.isEmpty ? "" : ": \(found.count)")")
            lines += found.map { "       \($0)" }
        }
        lines.append(
            violations.isEmpty ? "soak: PASS" : "soak: FAIL (\(violations.count) invariants violated)")
        return lines.joined(separator: "\n")
    }
}
