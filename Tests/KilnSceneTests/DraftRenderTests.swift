import Foundation
import KilnExport
import KilnModel
import KilnRaster
import XCTest

@testable import KilnScene

/// A draft (`--scale`) is the full-size picture made smaller: every shipped job rendered at half
/// size matches its full-size frame averaged over 2×2 blocks (a box filter), so positions, sizes,
/// fonts, strokes, offsets, blurs and effect distances all scaled together.
final class DraftRenderTests: XCTestCase {
    /// How far a draft may be from the box-filtered full frame, in 8-bit code values. What remains
    /// is resampling, not layout: text and images are drawn at the job's size and minified from
    /// their mip-maps, edges are anti-aliased at the draft's own pixels, and each frame is
    /// dithered. Measured over the shipped jobs at 1.7 s: a mean of 0.02 to 0.87 (symbol sheets
    /// with many small labels are the most), and at most 0.14 % of values off by more than 48
    /// (glyph and symbol edges). The showcase's carousel one frame later already means 1.24, two
    /// frames later 1.83 (`testTheComparisonSeesALayoutChange`).
    static let meanTolerance = 1.0
    static let farOff = 48.0
    static let farOffShare = 0.003

    struct Comparison {
        var mean: Double
        var farOffShare: Double
    }

    /// `draft` against `full` averaged over `factor` × `factor` blocks, on the colour channels.
    static func compare(draft: RGBA8Frame, full: RGBA8Frame, factor: Int) -> Comparison {
        precondition(full.width == draft.width * factor && full.height == draft.height * factor)
        var total = 0.0, far = 0
        for y in 0..<draft.height {
            for x in 0..<draft.width {
                let pixel = draft.pixel(x: x, y: y)
                for channel in 0..<3 {
                    var sum = 0
                    for dy in 0..<factor {
                        for dx in 0..<factor {
                            sum += Int(full.pixel(x: x * factor + dx, y: y * factor + dy)[channel])
                        }
                    }
                    let difference = abs(Double(sum) / Double(factor * factor) - Double(pixel[channel]))
                    total += difference
                    if difference > farOff { far += 1 }
                }
            }
        }
        let count = Double(draft.width * draft.height * 3)
        return Comparison(mean: total / count, farOffShare: Double(far) / count)
    }

    private static var shippedJobs: [(name: String, job: Job)] {
        get throws {
            let folder = Fixture.repositoryRoot.appendingPathComponent("jobs")
            return try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".json") }.sorted()
                .map { ($0, try JobFiles.load(file: folder.appendingPathComponent($0).path)) }
        }
    }

    func testEveryShippedJobAtHalfSizeIsItsFullFrameBoxFiltered() throws {
        let jobs = try Self.shippedJobs
        XCTAssertGreaterThanOrEqual(jobs.count, 25)
        for (name, job) in jobs {
            let draft = try job.drafted(Draft(size: .scale(0.5)))
            XCTAssertEqual(
                [draft.output.width * 2, draft.output.height * 2], [job.output.width, job.output.height], name
            )
            // Late enough that most layers have appeared and are moving.
            let time = min(1.7, job.output.durationSeconds / 2)
            let result = Self.compare(
                draft: Fixture.render(draft, at: time), full: Fixture.render(job, at: time), factor: 2)
            XCTAssertLessThanOrEqual(result.mean, Self.meanTolerance, "\(name) at \(time) s: mean error")
            XCTAssertLessThanOrEqual(
                result.farOffShare, Self.farOffShare,
                "\(name) at \(time) s: share of values off by > \(Self.farOff)")
        }
    }

    /// A quarter size, where each draft pixel stands for 16: the showcase (blurred cover, mesh,
    /// carousel with blurs by scroll phase, springing title) and the text reveal mid-way.
    func testQuarterSize() throws {
        for (name, time) in [("showcase", 3.3), ("text", 1.0), ("ripple", 1.2)] {
            let job = try JobFiles.load(
                file: Fixture.repositoryRoot.appendingPathComponent("jobs/\(name).json").path)
            let draft = try job.drafted(Draft(size: .scale(0.25)))
            let result = Self.compare(
                draft: Fixture.render(draft, at: time), full: Fixture.render(job, at: time), factor: 4)
            XCTAssertLessThanOrEqual(result.mean, Self.meanTolerance, "\(name): mean error")
            XCTAssertLessThanOrEqual(result.farOffShare, Self.farOffShare, "\(name): far-off share")
        }
    }

    /// The measure is not blind: the same draft two frames later (the carousel has turned a
    /// little), or with its blur left at the full-size radius, is outside the tolerance.
    func testTheComparisonSeesALayoutChange() throws {
        let job = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/showcase.json").path)
        let draft = try job.drafted(Draft(size: .scale(0.5)))
        // 4.0 s: 0.1 s into the carousel's second advance (every 1.3 s from its appear at 1.3 s).
        let full = Fixture.render(job, at: 4.0)
        let later = Self.compare(draft: Fixture.render(draft, at: 4.0 + 2.0 / 30), full: full, factor: 2)
        XCTAssertGreaterThan(later.mean, 1.5 * Self.meanTolerance)

        // The blurred cover alone, its 36-pixel blur scaled (the draft) or not (a draft that
        // forgot to): only the scaled one matches.
        let cover = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#000000"},
                        {"type": "shape", "shape": "circle", "size": [120, 120], "fill": "#ffffff",
                         "effects": [{"blur": 12}]}]}
            """)
        let coverFull = Fixture.render(cover, at: 0)
        let scaled = Self.compare(
            draft: Fixture.render(try cover.drafted(Draft(size: .scale(0.5))), at: 0), full: coverFull,
            factor: 2)
        XCTAssertLessThanOrEqual(scaled.mean, 0.5)
        let unscaledBlur = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#000000"},
                        {"type": "shape", "shape": "circle", "size": [120, 120], "fill": "#ffffff",
                         "effects": [{"blur": 24}]}]}
            """)
        let forgot = Self.compare(
            draft: Fixture.render(try unscaledBlur.drafted(Draft(size: .scale(0.5))), at: 0), full: coverFull,
            factor: 2)
        XCTAssertGreaterThan(forgot.mean, 4 * scaled.mean + 0.5)
    }

    /// Geometry that modifiers read (`visualEffect`, transitions) is in the job's units: a
    /// mapping from a layer's minY gives the draft the same value as the full size.
    func testModifierGeometryIsInTheJobsUnits() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 400, "height": 200, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#000000"},
                        {"type": "shape", "shape": "rect", "size": [80, 80], "fill": "#ffffff",
                         "position": [40, 120],
                         "visualEffect": {"opacity": {"of": "minY", "times": 0.01, "plus": -0.5}}}]}
            """)
        // minY = 120 − 40 = 80 → opacity 0.3, at either size.
        let full = Fixture.render(job, at: 0)
        let draft = Fixture.render(try job.drafted(Draft(size: .scale(0.5))), at: 0)
        XCTAssertEqual(Double(full.pixel(x: 40, y: 120)[0]), 0.3 * 255, accuracy: 2)
        XCTAssertEqual(Double(draft.pixel(x: 20, y: 60)[0]), 0.3 * 255, accuracy: 2)
    }
}
