import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnScene
import KilnTestSupport
import XCTest

/// Issue 20, part 3: no number in a job can trap the renderer. Every shipped job and every
/// hostile fixture is mutated, one or two of its numbers at a time, to extreme values; each
/// mutant is either refused with diagnostics or renders a few frames. A trap kills the test
/// process, which fails the run. The generator is seeded, so a failure reproduces.
final class NumericFuzzTests: XCTestCase {
    /// JSON spellings of the values that break arithmetic: signed zeros, the extremes of Double,
    /// denormals, integers past 2^53 and Int, and tokens a lenient parser might take for
    /// infinity or NaN.
    static let hostileNumbers = [
        "0", "-0", "-1", "0.5", "1e308", "-1e308", "1e20", "-1e20", "1e-320", "-1e-320", "1e6", "-1e6",
        "1000001", "65536", "2147483648", "9223372036854775808", "-9223372036854775809",
        "123456789012345678901234567890", "1e999", "-1e999", "NaN", "Infinity", "-Infinity",
    ]

    /// Factors and shifts applied to a job's own number: most results stay in the number's
    /// range, so the mutant validates and its extremes reach the renderer.
    static let rescalings: [@Sendable (Double) -> Double] = [
        { -$0 }, { $0 * 10 }, { $0 * 1000 }, { $0 / 1000 }, { $0 + 100_000 }, { $0 - 100_000 }, { $0 + 1e-9 },
    ]

    static let mutantsPerSeed = 32
    static let canvas = Canvas(width: 64, height: 36)

    func testMutatedNumbersAreRefusedOrRenderWithoutTrapping() throws {
        let started = Date()
        var generator = SplitMix(state: 20)
        var outcome = Outcome()
        for seed in try Self.seeds() {
            let numbers = JSONNumberTokens.ranges(in: seed.bytes)
            XCTAssertFalse(numbers.isEmpty, seed.name)
            guard !numbers.isEmpty else { continue }
            for _ in 0..<Self.mutantsPerSeed {
                let count = Int.random(in: 1...2, using: &generator)
                let chosen = (0..<count).map { _ in numbers.randomElement(using: &generator)! }
                let replacements = chosen.map { range in
                    Self.replacement(
                        for: String(decoding: seed.bytes[range], as: UTF8.self), using: &generator)
                }
                let mutant = JSONNumberTokens.replacing(Array(zip(chosen, replacements)), in: seed.bytes)
                let name = "\(seed.name) with \(replacements.joined(separator: ", "))"
                try check(mutant, name: name, base: seed.directory, outcome: &outcome)
            }
        }
        let seconds = Date().timeIntervalSince(started)
        print(
            "numeric fuzz: \(outcome.rendered) mutants rendered, \(outcome.refused) refused, "
                + "\(String(format: "%.1f", seconds)) s")
        // Both outcomes must be common, or the corpus tests only one side.
        XCTAssertGreaterThan(outcome.rendered, outcome.total / 8)
        XCTAssertGreaterThan(outcome.refused, outcome.total / 8)
    }

    /// A hostile spelling, or the written number rescaled.
    static func replacement(for written: String, using generator: inout SplitMix) -> String {
        guard Int.random(in: 0..<3, using: &generator) > 0, let value = Double(written) else {
            return hostileNumbers.randomElement(using: &generator)!
        }
        return "\(rescalings.randomElement(using: &generator)!(value))"
    }

    struct Outcome {
        var rendered = 0
        var refused = 0
        var total: Int { rendered + refused }
    }

    private func check(_ mutant: [UInt8], name: String, base: URL, outcome: inout Outcome) throws {
        let job: Job
        do {
            job = try JobFiles.decode(bytes: mutant, file: "mutant.json", baseDirectory: base)
        } catch .invalid(let diagnostics) {
            XCTAssertFalse(diagnostics.isEmpty, name)
            XCTAssertFalse(diagnostics.contains { $0.message.isEmpty }, name)
            outcome.refused += 1
            return
        } catch {
            XCTFail("\(name): \(error)")
            return
        }
        // The frame is tiny whatever the job asks for: what matters is that every number
        // computed for its layers converts, not how many pixels it fills.
        let renderer = SceneRenderer(job: job, canvas: Self.canvas, threads: 2)
        let frame = RGBA8Frame(width: Self.canvas.width, height: Self.canvas.height)
        let duration = Double(job.output.frameCount) / job.output.frameRate.doubleValue
        for time in [0, duration / 2, duration] {
            renderer.render(at: time, yuv: nil, rgba: frame)
        }
        outcome.rendered += 1
    }

    struct Seed {
        let name: String
        let bytes: [UInt8]
        let directory: URL
    }

    /// The shipped jobs, whose assets are beside them, and the hostile fixtures.
    static func seeds() throws -> [Seed] {
        let jobs = Fixture.repositoryRoot.appendingPathComponent("jobs")
        var seeds: [Seed] = []
        for directory in [jobs, HostileFixture.directory] {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".json") }.sorted()
            for name in names {
                let bytes = try Array(Data(contentsOf: directory.appendingPathComponent(name)))
                seeds.append(Seed(name: name, bytes: bytes, directory: directory))
            }
        }
        XCTAssertGreaterThan(seeds.count, 10)
        return seeds
    }
}
