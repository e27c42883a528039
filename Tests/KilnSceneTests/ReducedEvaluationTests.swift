import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene
import XCTest

/// Pixel stages over a large blur evaluated on a reduced grid (`ReducedPipelineLayer`): where the
/// policy allows it, against full resolution; where it does not, identical to full resolution.
final class ReducedEvaluationTests: XCTestCase {
    /// The tolerance against full resolution, per channel of 8-bit RGBA: at least 99.9 % of the
    /// values within 1 code value, none more than 3 off.
    let withinOneShare = 0.999
    let largestDifference = 3

    struct Difference: CustomStringConvertible {
        var largest = 0
        var withinOne = 0.0
        var mean = 0.0
        var description: String {
            String(format: "largest %d, within 1: %.4f %%, mean %.4f", largest, withinOne * 100, mean)
        }
    }

    func difference(_ a: RGBA8Frame, _ b: RGBA8Frame) -> Difference {
        let x = a.byteArray, y = b.byteArray
        var result = Difference()
        var within = 0, total = 0
        for i in x.indices {
            let d = abs(Int(x[i]) - Int(y[i]))
            result.largest = max(result.largest, d)
            if d <= 1 { within += 1 }
            total += d
        }
        result.withinOne = Double(within) / Double(x.count)
        result.mean = Double(total) / Double(x.count)
        return result
    }

    func render(_ job: Job, at time: Double, threads: Int = 2, _ reduced: ReducedEvaluation) -> RGBA8Frame {
        let canvas = Canvas(width: job.output.width, height: job.output.height, reducedEvaluation: reduced)
        let frame = RGBA8Frame(width: canvas.width, height: canvas.height)
        SceneRenderer(job: job, canvas: canvas, threads: threads).render(
            at: time, yuv: nil, rgba: frame)
        return frame
    }

    /// jobs/warp.json's cover (1280×720, dusk.png, blur 30) with `effect` after the blur.
    func coverJob(_ effect: String) throws -> Job {
        let photo = Fixture.repositoryRoot.appendingPathComponent("jobs/photos/dusk.png").path
        return try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 1280, "height": 720, "fps": 30, "duration": 6},
             "layers": [{"type": "image", "path": "\(photo)", "size": [1280, 720], "fit": "fill",
                         "effects": [{"blur": 30}, \(effect)]}]}
            """)
    }

    func testFactorFollowsTheBlur() {
        XCTAssertEqual(ReducedGrid.factor(blurRadius: 30), 4)
        XCTAssertEqual(ReducedGrid.factor(blurRadius: 16), 4)
        XCTAssertEqual(ReducedGrid.factor(blurRadius: 8), 2)
        XCTAssertNil(ReducedGrid.factor(blurRadius: 4))
        XCTAssertNil(ReducedGrid.factor(blurRadius: .nan))
    }

    /// The coarse check (`ReducedGrid.coarseMisses`) that decides where cell centres are
    /// evaluated: samples on a plane clear every coarse cell; a bend that leaves each coarse
    /// cell's centre on its corners' mean but one edge midpoint off (a ridge along a sample row,
    /// which a centre-only check misses) shows in the two coarse cells sharing that edge only,
    /// by the bend's size.
    func testCoarseChecksSeeBendsAtEdgeMidpoints() {
        let grid = ReducedGrid(factor: 4, rows: 0..<40, columns: 0..<64)
        XCTAssertEqual(grid.coarseColumns, 8)
        XCTAssertEqual(grid.coarseRows, 5)
        let samples = PlanarBand(width: grid.columns + 24, rows: grid.rows)
        // A plane, in sixteenths (exact in Float), the same in every channel.
        for i in 0..<grid.rows {
            for j in 0..<(grid.columns + 24) {
                let value = Float(3 * j + 5 * i) / 16
                for plane in [samples.r, samples.g, samples.b, samples.a] {
                    plane[i * samples.stride + j] = value
                }
            }
        }
        let misses = UnsafeMutablePointer<Float>.allocate(capacity: grid.coarseColumns + 8)
        defer { misses.deallocate() }
        for b in 0..<grid.coarseRows {
            grid.coarseMisses(samples, coarseRow: b, into: misses)
            for a in 0..<grid.coarseColumns {
                XCTAssertEqual(misses[a], 0, "plane, coarse cell (\(a), \(b))")
            }
        }
        // Lift the midpoint of the edge between coarse rows 1 and 2 in coarse column 3: sample
        // (7, 4), in green only.
        samples.g[4 * samples.stride + 7] += 0.25
        for b in 0..<grid.coarseRows {
            grid.coarseMisses(samples, coarseRow: b, into: misses)
            for a in 0..<grid.coarseColumns {
                let shares = a == 3 && (b == 1 || b == 2)
                XCTAssertEqual(misses[a], shares ? 0.25 : 0, "coarse cell (\(a), \(b))")
            }
        }
    }

    /// A gentle warp over blur 30 (one noise lookup, strength 40): within the tolerance of full
    /// resolution at several times, and not byte-identical to it (so the reduced path ran).
    func testGentleWarpMatchesFullResolution() throws {
        let job = try coverJob(
            #"{"backgroundWarp": {"mode": "noise", "strength": 40, "speed": 0.03, "noise": {"generate": {"seed": 7, "size": 256}}, "edges": "clamp"}}, {"brightness": -0.15}"#
        )
        for time in [0.0, 2.5] {
            let reduced = render(job, at: time, .whenSafe), full = render(job, at: time, .off)
            let d = difference(reduced, full)
            print("gentle warp at \(time) s, 4× grid vs full resolution: \(d)")
            XCTAssertNotEqual(reduced.byteArray, full.byteArray, "the reduced path did not run")
            XCTAssertLessThanOrEqual(d.largest, largestDifference)
            XCTAssertGreaterThanOrEqual(d.withinOne, withinOneShare)
        }
    }

    /// The seed's warp (jobs/warp.json: domain warp, strength 200) squeezes the picture up to
    /// ≈ 33× (median 4×); the 4× grid's checks find the cells it misses, which are evaluated
    /// pixel by pixel: within the tolerance of full resolution. The grid alone (forced) misses
    /// it, so the comparison can fail.
    func testSeedWarpMatchesFullResolution() throws {
        let job = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/warp.json").path)
        for time in [0.0, 0.9, 1.8, 2.2, 3.0, 4.1, 4.5, 5.5] {
            let full = render(job, at: time, .off), refined = render(job, at: time, .whenSafe)
            let d = difference(refined, full)
            print("seed warp at \(time) s, refined 4× grid vs full resolution: \(d)")
            XCTAssertLessThanOrEqual(d.largest, largestDifference)
            XCTAssertGreaterThanOrEqual(d.withinOne, withinOneShare)
            XCTAssertNotEqual(refined.byteArray, full.byteArray, "the reduced path did not run")
            if time == 3.0 {
                let forced = difference(render(job, at: time, .forced(4)), full)
                print("seed warp at \(time) s, 4× grid alone vs full resolution: \(forced)")
                XCTAssertGreaterThan(forced.largest, largestDifference)
            }
        }
    }

    /// The podcast background of jobs/transcript.json (1080p, domain warp strength 200, then
    /// brightness −0.15), without the overlay.
    func testPodcastCoverMatchesFullResolution() throws {
        let photo = Fixture.repositoryRoot.appendingPathComponent("jobs/photos/dusk.png").path
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 1920, "height": 1080, "fps": 30, "duration": 13},
             "layers": [{"type": "image", "path": "\(photo)", "size": [1920, 1080], "fit": "fill",
                         "effects": [{"blur": 30},
                                     {"backgroundWarp": {"strength": 200, "speed": 0.02, "noise": {"generate": {"seed": 7, "size": 256}}, "edges": "clamp"}},
                                     {"brightness": -0.15}]}]}
            """)
        for time in [0.0, 4.3, 9.2, 11.0] {
            let d = difference(render(job, at: time, .whenSafe), render(job, at: time, .off))
            print("podcast cover at \(time) s, refined 4× grid vs full resolution: \(d)")
            XCTAssertLessThanOrEqual(d.largest, largestDifference)
            XCTAssertGreaterThanOrEqual(d.withinOne, withinOneShare)
        }
    }

    /// A smaller layer, rotated, scaled and partly outside a small frame (the grid then starts
    /// and ends mid-frame, off the chunk grid), under blur 20 and a strong warp over coarse noise
    /// (texels ≈ 8 frame pixels): within the tolerance, the reduced path taken, and the same
    /// bytes on 1 and 3 threads. With the default noise (256 texels over the 200-pixel layer,
    /// ≈ 1 frame pixel each) the warp is finer than half a grid cell and stays at full
    /// resolution (on the checked grid it differed by up to 11).
    func testTransformedLayerPartlyOutsideTheFrame() throws {
        let photo = Fixture.repositoryRoot.appendingPathComponent("jobs/photos/dusk.png").path
        func job(noise: String) throws -> Job {
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": 2},
                 "layers": [{"type": "solid", "color": "#203040"},
                            {"type": "image", "path": "\(photo)", "size": [200, 120], "fit": "fill",
                             "position": [250, 60], "rotation": 20, "scale": 1.3,
                             "effects": [{"blur": 20},
                                         {"backgroundWarp": {"strength": 100, "speed": 0.1, "edges": "clamp"\(noise)}}]}]}
                """)
        }
        let coarse = try job(
            noise: #", "noise": {"generate": {"seed": 3, "size": 32, "cells": 2, "octaves": 2}}"#)
        let reduced = render(coarse, at: 0.7, threads: 1, .whenSafe), full = render(coarse, at: 0.7, .off)
        let d = difference(reduced, full)
        print("transformed layer, refined 4× grid vs full resolution: \(d)")
        XCTAssertNotEqual(reduced.byteArray, full.byteArray, "the reduced path did not run")
        XCTAssertLessThanOrEqual(d.largest, largestDifference)
        XCTAssertGreaterThanOrEqual(d.withinOne, withinOneShare)
        XCTAssertEqual(reduced.byteArray, render(coarse, at: 0.7, threads: 3, .whenSafe).byteArray)
        XCTAssertEqual(
            render(coarse, at: 0.7, threads: 1, .forced(2)).byteArray,
            render(coarse, at: 0.7, threads: 3, .forced(2)).byteArray)
        let fine = try job(noise: "")
        XCTAssertEqual(render(fine, at: 0.7, .whenSafe).byteArray, render(fine, at: 0.7, .off).byteArray)
    }

    /// A ripple is not smooth (sharp at its origin and front): blur + ripple stays at full
    /// resolution.
    func testRippleStaysFullResolution() throws {
        let job = try coverJob(
            #"{"ripple": {"amplitude": 12, "frequency": 15, "decay": 8, "speed": 1200, "triggers": [{"at": 0.2, "origin": [640, 360]}], "edges": "clamp"}}"#
        )
        XCTAssertEqual(render(job, at: 0.6, .whenSafe).byteArray, render(job, at: 0.6, .off).byteArray)
    }

    /// The grid's samples, the checks and the enlargement do not depend on how rows are split.
    func testSameBytesForAnyThreadCount() throws {
        let gentle = try coverJob(
            #"{"backgroundWarp": {"mode": "noise", "strength": 40, "speed": 0.03, "edges": "clamp"}}"#)
        for mode in [ReducedEvaluation.whenSafe, .forced(2), .forced(4)] {
            XCTAssertEqual(
                render(gentle, at: 1.3, threads: 1, mode).byteArray,
                render(gentle, at: 1.3, threads: 3, mode).byteArray, "\(mode)")
        }
        let seed = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/warp.json").path)
        XCTAssertEqual(
            render(seed, at: 2.2, threads: 1, .whenSafe).byteArray,
            render(seed, at: 2.2, threads: 3, .whenSafe).byteArray)
    }
}
