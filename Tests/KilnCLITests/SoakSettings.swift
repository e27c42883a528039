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

/// The tiny good jobs: a few layer kinds, some with sound, some split into segments.
struct GoodJob {
    enum Kind: String, CaseIterable {
        case mesh, audio, image, segmented, text
    }

    let kind: Kind
    let width: Int
    let height: Int
    let frames: Int

    init(index: Int, random: inout SplitMix) {
        kind = Kind.allCases[index % Kind.allCases.count]
        (width, height) = Bool.random(using: &random) ? (64, 36) : (160, 90)
        frames = kind == .segmented ? 30 : Int.random(in: 5...30, using: &random)
    }

    var enqueueOptions: [String] { kind == .segmented ? ["--segments", "3"] : [] }

    func text(output: String) -> String {
        let layer: String
        switch kind {
        case .mesh, .segmented:
            layer = ##"""
                {"type": "meshGradient", "width": 2, "height": 2,
                 "points": [[0, 0], [1, 0], [0, 1], {"keyframes": [{"t": 0, "v": [1, 1]}, {"t": 1, "v": [0.2, 0.3]}]}],
                 "colors": ["#ff5a36", "#3a1c71", "#00a8cc", "#ffb347"]}
                """##
        case .audio:
            layer =
                ##"{"type": "solid", "color": "#336699"}, {"type": "shape", "size": [20, 12], "fill": "#ffb347"}"##
        case .image:
            layer = ##"{"type": "image", "path": "photo.png", "size": [\##(width), \##(height)]}"##
        case .text:
            layer = ##"{"type": "solid", "color": "#202020"}, {"type": "text", "text": "Kiln", "size": 14}"##
        }
        let audio = kind == .audio ? ##", "audio": {"path": "tone.flac", "fadeIn": 0.1}"## : ""
        return ##"""
            {"kiln": 1, "output": {"path": "\##(output)", "width": \##(width), "height": \##(height), "fps": 30,
                                   "duration": {"frames": \##(frames)}, "preset": "ultrafast"},
             "layers": [\##(layer)]\##(audio)}
            """##
    }
}

/// One job the harness tried to enqueue, and how that went.
final class SoakJob {
    enum Role {
        case good(GoodJob)
        case hostile(HostileCase)
    }

    enum Enqueued {
        case pending
        case accepted(id: Int)
        case refused(status: Int32, message: String)
        case hung
    }

    let label: String
    let role: Role
    let file: String
    var enqueued = Enqueued.pending

    init(label: String, role: Role, file: String) {
        self.label = label
        self.role = role
        self.file = file
    }

    var id: Int? {
        if case .accepted(let id) = enqueued { return id }
        return nil
    }
}

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

/// Control characters and long messages kept out of the report.
func oneLine(_ text: String, limit: Int = 240) -> String {
    let flat = String(
        text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : Character($0) }
    )
    .trimmingCharacters(in: .whitespaces)
    return flat.count > limit ? String(flat.prefix(limit)) + "…" : flat
}
