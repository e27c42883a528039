import Foundation
import XCTest

/// A hostile job kept as a fixture (`Fixtures/Soak/NAME.json`, `{{ID}}` replaced by a name unique
/// to each copy), what the harness does around its enqueue, and the words one of which its refusal
/// or failure must contain to count as naming the problem.
struct HostileCase {
    enum Preparation {
        case none
        /// The image exists at enqueue and is deleted right after: the job fails at render.
        case imageVanishesAfterEnqueue
        /// The image is valid at enqueue and replaced by garbage right after.
        case imageCorruptedAfterEnqueue
        /// The audio path is a FIFO that nobody writes.
        case fifoAudio
    }

    let name: String
    let preparation: Preparation
    let reasons: [String]

    /// Most severe last: `output-is-queue` overwrites the database on a Kiln without issue 20's
    /// output checks, after which there is little left to check.
    static let all: [HostileCase] = [
        HostileCase(name: "truncated", preparation: .none, reasons: ["expected", "end of", "unterminated"]),
        HostileCase(name: "unknown-layer", preparation: .none, reasons: ["hologram"]),
        HostileCase(name: "missing-image", preparation: .none, reasons: ["nowhere-"]),
        HostileCase(name: "vanished-image", preparation: .imageVanishesAfterEnqueue, reasons: ["vanish-"]),
        HostileCase(name: "corrupted-image", preparation: .imageCorruptedAfterEnqueue, reasons: ["corrupt-"]),
        HostileCase(name: "negative-fps", preparation: .none, reasons: ["fps"]),
        HostileCase(
            name: "cubic-bezier-trap", preparation: .none, reasons: ["cubicBezier", "finite", "ease"]),
        HostileCase(name: "mesh-point-trap", preparation: .none, reasons: ["points", "finite"]),
        HostileCase(name: "fifo-audio", preparation: .fifoAudio, reasons: ["fifo", "regular file"]),
        HostileCase(name: "blur-bomb", preparation: .none, reasons: ["limit", "memory", "blur"]),
        HostileCase(name: "newline-bomb", preparation: .none, reasons: ["limit", "lines", "text"]),
        HostileCase(
            name: "memory-text-bomb", preparation: .none, reasons: ["memory budget", "memory-megabytes"]),
        HostileCase(name: "deep-json", preparation: .none, reasons: ["json-depth"]),
        HostileCase(name: "deep-groups", preparation: .none, reasons: ["nesting"]),
        HostileCase(name: "output-is-queue", preparation: .none, reasons: ["queue"]),
    ]

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Soak")

    func text(id: String) throws -> String {
        try String(contentsOf: Self.fixtures.appendingPathComponent("\(name).json"), encoding: .utf8)
            .replacingOccurrences(of: "{{ID}}", with: id)
    }

    func namesTheProblem(_ message: String) -> Bool {
        reasons.contains { message.range(of: $0, options: .caseInsensitive) != nil }
    }
}
