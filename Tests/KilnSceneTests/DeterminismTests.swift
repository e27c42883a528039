import Foundation
import KilnExport
import KilnRaster
import XCTest

@testable import KilnScene

final class DeterminismTests: XCTestCase {
    /// Every shipped job, at a few times: 1 thread and N threads give the same bytes.
    func testOneThreadAndManyThreadsGiveIdenticalBytes() throws {
        let jobsDir = Fixture.repositoryRoot.appendingPathComponent("jobs")
        let files = try FileManager.default.contentsOfDirectory(atPath: jobsDir.path).filter {
            $0.hasSuffix(".json")
        }
        XCTAssertGreaterThanOrEqual(files.count, 3)
        for file in files.sorted() {
            let job = try JobFiles.load(file: jobsDir.appendingPathComponent(file).path)
            for time in [0.5, 1.7, 4.1].filter({ $0 < job.output.durationSeconds }) {
                let reference = Fixture.renderYUV(job, at: time, threads: 1)
                for threads in [2, 3, 8] {
                    XCTAssertEqual(
                        reference, Fixture.renderYUV(job, at: time, threads: threads),
                        "\(file) t=\(time) threads=\(threads)")
                }
                XCTAssertEqual(
                    Fixture.render(job, at: time, threads: 1).byteArray,
                    Fixture.render(job, at: time, threads: 5).byteArray, "\(file) t=\(time)")
            }
        }
    }
}

extension DeterminismTests {
    /// Nothing a band or a scratch band held before reaches the picture: every shipped job, with
    /// each band and scratch band filled with an opaque colour before use, renders the same bytes.
    /// (Leftovers in the edge chunks of a shape's window once made jobs/paths.json differ from
    /// run to run, depending on which worker had painted what.)
    func testScratchLeftoversNeverReachThePicture() throws {
        let jobsDir = Fixture.repositoryRoot.appendingPathComponent("jobs")
        let files = try FileManager.default.contentsOfDirectory(atPath: jobsDir.path).filter {
            $0.hasSuffix(".json")
        }
        let poison = PremultipliedColor(r: 0.25, g: 0.5, b: 0.75, a: 1)
        for file in files.sorted() {
            let job = try JobFiles.load(file: jobsDir.appendingPathComponent(file).path)
            let canvas = Canvas(width: job.output.width, height: job.output.height)
            for time in [0.5, 1.7, 4.1].filter({ $0 < job.output.durationSeconds }) {
                func frame(_ poison: PremultipliedColor?) -> [UInt8] {
                    let rgba = RGBA8Frame(width: canvas.width, height: canvas.height)
                    SceneRenderer(
                        layers: job.layers, camera: job.camera, canvas: canvas, threads: 2,
                        limits: job.limits,
                        scratchPoison: poison
                    ).render(at: time, yuv: nil, rgba: rgba)
                    return rgba.byteArray
                }
                let clean = frame(nil), poisoned = frame(poison)
                let differing = zip(clean, poisoned).filter { $0 != $1 }.count
                XCTAssertEqual(differing, 0, "\(file) t=\(time): bytes that differ")
            }
        }
    }

    /// Preparing the next frame alongside the current one's bands changes nothing in the bytes,
    /// and a prefetch for a time that is not asked for next is ignored.
    func testPrefetchingTheNextFrameGivesIdenticalBytes() throws {
        let job = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/showcase.json").path)
        let canvas = Canvas(width: 480, height: 270)
        let plain = SceneRenderer(job: job, canvas: canvas, threads: 2)
        let ahead = SceneRenderer(job: job, canvas: canvas, threads: 2)
        let a = RGBA8Frame(width: 480, height: 270), b = RGBA8Frame(width: 480, height: 270)
        let times = [0.5, 0.6, 0.7, 2.0, 2.1]
        for (i, t) in times.enumerated() {
            plain.render(at: t, yuv: nil, rgba: a)
            // The prefetch for 0.8 after 0.7 is wasted on purpose: 2.0 must not reuse it.
            let next = i + 1 < times.count ? (t == 0.7 ? 0.8 : times[i + 1]) : nil
            ahead.render(at: t, prefetching: next, yuv: nil, rgba: b)
            XCTAssertEqual(a.byteArray, b.byteArray, "t=\(t)")
        }
    }
}
