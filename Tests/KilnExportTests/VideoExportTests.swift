import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene
import KilnTestSupport
import Synchronization
import XCTest

final class VideoExportTests: ScratchDirectoryTestCase {

    func job(frames: Int = 24, fps: String = "\"30000/1001\"", width: Int = 320, height: Int = 180) throws
        -> Job
    {
        try LayerRegistry.decode(
            bytes: Array(
                """
                {"kiln": 1,
                 "output": {"path": "out.mp4", "width": \(width), "height": \(height), "fps": \(fps),
                            "duration": {"frames": \(frames)}, "crf": 16, "preset": "veryfast", "gop": 10},
                 "layers": [
                   {"type": "solid", "color": {"keyframes": [{"t": 0, "v": "#202040"}, {"t": 1, "v": "#e0c080"}]}},
                   {"type": "meshGradient", "width": 2, "height": 2, "opacity": 0.5,
                    "points": [[0,0],[1,0],[0,1],{"keyframes": [{"t": 0, "v": [1,1]}, {"t": 1, "v": [0.6,0.7]}]}],
                    "colors": ["#ff0000","#00ff00","#0000ff","#ffffff"]}]}
                """.utf8), file: "export-test.json", baseDirectory: directory)
    }

    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
    }

    /// Decode-back: stream facts, exact frame count and timing, and every decoded frame's colour
    /// matches the frame the renderer produced (within what a lossy encoder may change).
    func testExportDecodesBackWithExactFramesTagsAndColors() throws {
        let job = try job()
        let summary = try VideoExport(job: job, threads: 2).run()
        XCTAssertEqual(summary.output, directory.appendingPathComponent("out.mp4"))
        XCTAssertEqual(try leftovers(), ["out.mp4"])

        let preview = FramePreview(job: job, threads: 2)
        let previews = try (0..<job.output.frameCount).map { try preview.render(frame: $0) }
        var worstMean = 0.0
        let info = try VideoDecodeBack.decode(path: summary.output.path) { frame in
            let expected = previews[frame.index]
            for (x, y) in [(0, 0), (160, 0), (0, 90), (160, 90)] {
                let got = frame.meanRGB(x: x, y: y, width: 160, height: 90)
                var sum = (0.0, 0.0, 0.0)
                for yy in y..<(y + 90) {
                    for xx in x..<(x + 160) {
                        let p = expected.pixel(x: xx, y: yy)
                        sum.0 += Double(p[0])
                        sum.1 += Double(p[1])
                        sum.2 += Double(p[2])
                    }
                }
                let n = 160.0 * 90.0
                worstMean = max(
                    worstMean, abs(got.r - sum.0 / n), abs(got.g - sum.1 / n), abs(got.b - sum.2 / n))
            }
        }
        XCTAssertEqual(info.codecName, "h264")
        XCTAssertEqual(info.pixelFormat, "yuv420p")
        XCTAssertEqual(info.width, 320)
        XCTAssertEqual(info.height, 180)
        XCTAssertEqual(info.frameRateNumerator, 30000)
        XCTAssertEqual(info.frameRateDenominator, 1001)
        XCTAssertEqual(info.decodedFrameCount, 24)
        XCTAssertEqual(info.decodeErrors, 0)
        XCTAssertEqual(info.colorPrimaries, "bt709")
        XCTAssertEqual(info.colorTransfer, "bt709")
        XCTAssertEqual(info.colorSpace, "bt709")
        XCTAssertEqual(info.colorRange, "tv")
        XCTAssertEqual(info.containerDurationSeconds, 24 * 1001 / 30000, accuracy: 0.002)
        for (i, t) in info.presentationTimestamps.enumerated() {
            XCTAssertEqual(t - info.presentationTimestamps[0], Double(i) * 1001 / 30000, accuracy: 1e-4)
        }
        XCTAssertEqual(
            try MP4Boxes.topLevel(path: summary.output.path).filter { $0 == "moov" || $0 == "mdat" },
            ["moov", "mdat"])
        XCTAssertTrue(try MP4Boxes.moovContainsColr(path: summary.output.path))
        XCTAssertLessThan(worstMean, 2.0, "mean colour of a decoded quadrant drifted from the rendered frame")
    }

    /// Progress counts frames rendered and frames written to the file: libx264 holds frames back
    /// to look ahead and hands the last ones over only at the flush, and counting rendered frames
    /// alone made the estimate reach zero with that flush still to come.
    func testProgressCountsFramesInTheFileSoTheEstimateIncludesTheFlush() throws {
        let job = try job(frames: 40)
        let steps = Mutex<[ExportProgress]>([])
        _ = try VideoExport(job: job, threads: 2).run(progress: { p in steps.withLock { $0.append(p) } })
        let events = steps.withLock { $0 }
        XCTAssertEqual(events.map(\.fraction), events.map(\.fraction).sorted(), "never goes back")
        XCTAssertEqual(events.last?.fraction, 1)
        XCTAssertEqual(events.last?.written, 40)
        let firstWritten = try XCTUnwrap(events.first { $0.written > 0 })
        XCTAssertGreaterThan(
            firstWritten.frame, 1, "the first frame reaches the file after others are rendered")
        let flushed = try XCTUnwrap(events.first { $0.written == 39 })
        XCTAssertEqual(flushed.frame, 40, "the frame before the last is written at the flush")
        XCTAssertLessThan(flushed.fraction, 1)
        for event in events.dropLast() {
            XCTAssertGreaterThan(
                event.etaSeconds ?? 1, 0,
                "\(event.frame) rendered, \(event.written) written of 40 is not the end")
        }
    }

    func testSameJobTwiceGivesIdenticalDecodedFrames() throws {
        func hashes(_ name: String) throws -> [Int] {
            let url = directory.appendingPathComponent(name)
            _ = try VideoExport(job: try job(frames: 12), output: url, threads: 2).run()
            var result: [Int] = []
            _ = try VideoDecodeBack.decode(path: url.path) { frame in
                var h = Hasher()
                h.combine(bytes: UnsafeRawBufferPointer(frame.y))
                h.combine(bytes: UnsafeRawBufferPointer(frame.u))
                h.combine(bytes: UnsafeRawBufferPointer(frame.v))
                result.append(h.finalize())
            }
            return result
        }
        let first = try hashes("a.mp4")
        XCTAssertEqual(first.count, 12)
        XCTAssertEqual(first, try hashes("b.mp4"))
    }

    func testCancelledExportLeavesNothingBehind() throws {
        let flag = CancellationFlag()
        let url = directory.appendingPathComponent("cancelled.mp4")
        XCTAssertThrowsError(
            try VideoExport(job: try job(frames: 200), output: url, threads: 2).run(cancellation: flag) {
                progress in
                if progress.frame >= 3 { flag.cancel(signal: 2) }
            }
        ) { error in
            guard case ExportError.cancelled(let signal) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(signal, 2)
            XCTAssertEqual((error as? ExportError)?.exitCode, 130)
        }
        XCTAssertEqual(try leftovers(), [])
    }

    func testMissingOutputDirectoryIsCannotCreate() throws {
        let url = directory.appendingPathComponent("no/such/dir/out.mp4")
        XCTAssertThrowsError(try VideoExport(job: try job(frames: 2), output: url, threads: 1).run()) {
            error in
            XCTAssertEqual((error as? ExportError)?.exitCode, 73)
            XCTAssertTrue("\(error)".contains("does not exist"), "\(error)")
        }
        XCTAssertEqual(try leftovers(), [])
    }

    func testPreviewPNGIsTheVideoFrameBeforeConversion() throws {
        let job = try job()
        let url = directory.appendingPathComponent("frame.png")
        let preview = FramePreview(job: job, threads: 3)
        try preview.writeStill(frame: 7, as: .png, to: url)
        let decoded = try PNGCodec.decode(Array(try Data(contentsOf: url)))
        XCTAssertEqual(decoded.width, 320)
        XCTAssertEqual(decoded.rgba, try FramePreview(job: job, threads: 1).render(frame: 7).byteArray)
        XCTAssertEqual(try leftovers(), ["frame.png"])
        XCTAssertEqual(preview.frameIndex(atSeconds: 7 * 1001 / 30000), 7)
        // At or past the end no frame is shown; just before it, the last frame is.
        let end = job.output.durationSeconds
        XCTAssertEqual(preview.frameIndex(atSeconds: end.nextDown), 23)
        XCTAssertNil(preview.frameIndex(atSeconds: end))
        XCTAssertNil(preview.frameIndex(atSeconds: 1000))
    }

    /// Kiln's fused conversion and libswscale agree within one code value on smooth rendered
    /// content. (At hard edges the two chroma filters differ by design: ours is [1 2 1] × [1 1],
    /// left-sited; swscale uses its own scaler taps.)
    func testFusedConversionAgreesWithSwscale() throws {
        let job = try LayerRegistry.decode(
            bytes: Array(
                """
                {"kiln": 1, "output": {"width": 640, "height": 360, "fps": 30, "duration": 1},
                 "layers": [{"type": "meshGradient", "width": 3, "height": 3,
                   "points": [[0,0],[0.5,0],[1,0],[0,0.5],[0.8,0.35],[1,0.5],[0,1],[0.5,1],[1,1]],
                   "colors": ["#10204a","#ff5a36","#3a1c71","#00a8cc","#ffffff","#d76d77","#000000","#7b2ff7","#00ff00"]}]}
                """.utf8), file: "smooth.json", baseDirectory: directory)
        let canvas = Canvas(width: 640, height: 360)
        let renderer = SceneRenderer(job: job, canvas: canvas, threads: 2)
        let ours = YUV420Frame(width: 640, height: 360)
        let rgba = RGBA8Frame(width: 640, height: 360)
        renderer.render(at: 0.6, yuv: ours, rgba: rgba)
        let theirs = YUV420Frame(width: 640, height: 360)
        try SwscaleConverter(width: 640, height: 360).convert(
            rgba: rgba.bytes, rgbaStride: rgba.stride, y: theirs.y, yStride: theirs.yStride, u: theirs.u,
            v: theirs.v,
            uvStride: theirs.uvStride)
        func compare(
            _ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ count: Int, _ name: String
        ) {
            var worst = 0, within1 = 0
            for i in 0..<count {
                let d = abs(Int(a[i]) - Int(b[i]))
                worst = max(worst, d)
                within1 += d <= 1 ? 1 : 0
            }
            // Luma is a per-pixel formula and must agree everywhere; chroma may differ more at the
            // few creases of a folded mesh, where the filters' different taps see a sharp feature.
            XCTAssertLessThanOrEqual(worst, name == "Y" ? 1 : 8, "\(name): largest difference")
            XCTAssertGreaterThanOrEqual(
                Double(within1) / Double(count), 0.999, "\(name): share within one code value")
        }
        compare(ours.y, theirs.y, 640 * 360, "Y")
        compare(ours.u, theirs.u, 320 * 180, "Cb")
        compare(ours.v, theirs.v, 320 * 180, "Cr")
    }
}
