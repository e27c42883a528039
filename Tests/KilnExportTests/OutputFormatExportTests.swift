import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene
import KilnTestSupport
import XCTest

/// Decode-back of every output format: stream facts, frame count, size, duration, colour tags
/// where the format carries them, each frame's colour against what the renderer drew, and
/// transparency for the formats that keep it. The job is a 1 s, 30-frame, 160×90 gradient whose
/// colours move, drawn over all but a 32×32 top-left corner, which stays transparent.
final class OutputFormatExportTests: ScratchDirectoryTestCase {
    static let width = 160, height = 90, frames = 30
    /// Pixels of the transparent corner.
    static let corner = 32

    func job(format: String, path: String, audio: Bool = false) throws -> Job {
        try LayerRegistry.decode(
            bytes: Array(
                """
                {"kiln": 1,
                 "output": {"path": "\(path)", "format": "\(format)", "width": \(Self.width), "height": \(Self.height),
                            "fps": 30, "duration": {"frames": \(Self.frames)}},
                 "layers": [
                   {"type": "shape", "shape": "rect", "size": [160, 90], "position": [112, 77],
                    "gradient": [{"keyframes": [{"t": 0, "v": "#ff2000"}, {"t": 1, "v": "#20ff40"}]}, "#ffffff",
                                 {"keyframes": [{"t": 0, "v": "#2040ff"}, {"t": 1, "v": "#ff00c0"}]}],
                    "gradientStart": [0, 0.5], "gradientEnd": [1, 0.5]}]\(audio ? #", "audio": {"path": "tone.wav"}"# : "")}
                """.utf8), file: "formats.json", baseDirectory: directory)
    }

    /// What the renderer drew for every frame, straight alpha.
    func reference(_ job: Job) -> [RGBA8Frame] {
        let renderer = SceneRenderer(job: job, canvas: Canvas(output: job.output), threads: 2)
        return (0..<job.output.frameCount).map { n in
            let frame = RGBA8Frame(width: job.output.width, height: job.output.height)
            renderer.render(at: job.output.time(ofFrame: n), yuv: nil, rgba: frame, straightAlpha: true)
            return frame
        }
    }

    /// Mean absolute difference per channel over the covered pixels, in 0…255 codes, and the
    /// largest difference of a 16×16 block's mean colour (where a lossy codec's local error shows).
    func colorError(_ decoded: DecodedRGBAFrame, _ expected: RGBA8Frame) -> (
        mean: Double, worstBlock: Double
    ) {
        var total = 0.0, count = 0.0, worst = 0.0
        for by in stride(from: 0, to: expected.height - 15, by: 16) {
            for bx in stride(from: 0, to: expected.width - 15, by: 16) {
                var got = SIMD3<Double>(), want = SIMD3<Double>(), n = 0.0
                for y in by..<(by + 16) {
                    for x in bx..<(bx + 16) where expected.pixel(x: x, y: y)[3] == 255 {
                        let g = decoded.pixel(x: x, y: y), e = expected.pixel(x: x, y: y)
                        let gv = SIMD3<Double>(Double(g[0]), Double(g[1]), Double(g[2]))
                        let ev = SIMD3<Double>(Double(e[0]), Double(e[1]), Double(e[2]))
                        total += ((gv - ev) * (gv - ev)).squareRoot().sum() / 3
                        count += 1
                        got += gv
                        want += ev
                        n += 1
                    }
                }
                if n > 0 {
                    let d = (got - want) / n
                    worst = max(worst, abs(d.x), abs(d.y), abs(d.z))
                }
            }
        }
        return (total / max(1, count), worst)
    }

    /// Alpha of the transparent corner and of the covered part of a decoded frame.
    func assertTransparentCorner(
        _ frame: DecodedRGBAFrame, opaque: UInt8 = 255, file: StaticString = #filePath, line: UInt = #line
    ) {
        var cornerMax: UInt8 = 0, coveredMin: UInt8 = 255
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let a = frame.pixel(x: x, y: y)[3]
                if x < Self.corner && y < Self.corner { cornerMax = max(cornerMax, a) }
                if x >= Self.corner && y >= Self.corner { coveredMin = min(coveredMin, a) }
            }
        }
        XCTAssertEqual(
            cornerMax, 0, "frame \(frame.index): the corner is not transparent", file: file, line: line)
        XCTAssertGreaterThanOrEqual(
            coveredMin, opaque, "frame \(frame.index): the covered part is not opaque", file: file, line: line
        )
    }

    func assertBT709(_ info: VideoStreamInfo, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            [info.colorPrimaries, info.colorTransfer, info.colorSpace, info.colorRange],
            ["bt709", "bt709", "bt709", "tv"], file: file, line: line)
    }

    func assertStream(
        _ info: VideoStreamInfo, codec: String, pixelFormat: String, duration: Double = 1,
        tolerance: Double = 0.001,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(info.codecName, codec, file: file, line: line)
        XCTAssertEqual(info.pixelFormat, pixelFormat, file: file, line: line)
        XCTAssertEqual(info.width, Self.width, file: file, line: line)
        XCTAssertEqual(info.height, Self.height, file: file, line: line)
        XCTAssertEqual(info.decodedFrameCount, Self.frames, file: file, line: line)
        XCTAssertEqual(info.decodeErrors, 0, file: file, line: line)
        XCTAssertEqual(info.containerDurationSeconds, duration, accuracy: tolerance, file: file, line: line)
    }

    func export(_ job: Job) throws -> URL {
        let summary = try VideoExport(job: job, threads: 2).run()
        XCTAssertEqual(
            try contents().filter { $0.hasPrefix(".") }, [], "a temporary file or folder was left behind")
        return summary.output
    }

    func testHEVCDecodesBackAsTaggedHVC1WithTheRenderedColors() throws {
        let job = try job(format: "hevc", path: "out.mp4")
        let output = try export(job)
        let (info, frames) = try VideoDecodeBack.decodeRGBA(path: output.path)
        assertStream(info, codec: "hevc", pixelFormat: "yuv420p")
        assertBT709(info)
        XCTAssertFalse(info.hasAudio)
        XCTAssertTrue(try MP4Boxes.moovContainsColr(path: output.path))
        let expected = reference(job)
        for frame in frames {
            let error = colorError(frame, expected[frame.index])
            XCTAssertLessThan(error.worstBlock, 6, "frame \(frame.index)")
        }
    }

    func testVP9WebMWithOpusDecodesBackTaggedWithTheRenderedColorsAndSound() throws {
        try SegmentedExportTests.writeTone(to: directory.appendingPathComponent("tone.wav"), seconds: 2)
        let job = try job(format: "vp9", path: "out.webm", audio: true)
        let output = try export(job)
        let (info, frames) = try VideoDecodeBack.decodeRGBA(path: output.path)
        assertStream(info, codec: "vp9", pixelFormat: "yuv420p", tolerance: 0.03)
        assertBT709(info)
        XCTAssertTrue(info.hasAudio)
        let expected = reference(job)
        for frame in frames {
            // libvpx at its default crf (31) is looser than x265 at 18.
            XCTAssertLessThan(
                colorError(frame, expected[frame.index]).worstBlock, 10, "frame \(frame.index)")
        }
        let reader = try AudioFileReader(path: output.path)
        XCTAssertEqual(reader.info.codecName, "opus")
        XCTAssertEqual(reader.info.sampleRate, 48_000)
        XCTAssertEqual(reader.info.channels, 2)
        let (left, _) = try reader.readAll()
        XCTAssertEqual(reader.decodeErrors, 0)
        XCTAssertEqual(Double(left.count), 48_000, accuracy: 960, "as long as the 1 s video")
        XCTAssertGreaterThan(SegmentedExportTests.rms(left[4800..<40_000]), 0.1)
    }

    /// ProRes 4444 keeps the layer's transparency: the uncovered corner decodes with alpha 0.
    func testProRes4444KeepsAlphaAndColors() throws {
        let job = try job(format: "prores4444", path: "out.mov")
        let output = try export(job)
        let (info, frames) = try VideoDecodeBack.decodeRGBA(path: output.path)
        // Written as yuva444p10le; FFmpeg's ProRes decoder hands 4444 out at 12 bits.
        assertStream(info, codec: "prores", pixelFormat: "yuva444p12le")
        assertBT709(info)
        let expected = reference(job)
        for frame in frames {
            assertTransparentCorner(frame)
            let error = colorError(frame, expected[frame.index])
            XCTAssertLessThan(error.mean, 2, "frame \(frame.index)")
            XCTAssertLessThan(error.worstBlock, 2, "frame \(frame.index)")
        }
    }

    /// A generated palette per frame with error diffusion: on this gradient the mean error stays
    /// under 3 codes and under half that of a naive fixed 6×7×6 cube, and 16×16 blocks average
    /// out to within 3 codes; the corner stays transparent.
    func testGIFHasAGoodPaletteAndTransparency() throws {
        let job = try job(format: "gif", path: "out.gif")
        let output = try export(job)
        let (info, frames) = try VideoDecodeBack.decodeRGBA(path: output.path)
        // GIF counts time in hundredths: frames of 3 or 4 that add up to the second.
        assertStream(info, codec: "gif", pixelFormat: "bgra", tolerance: 0.011)
        let expected = reference(job)
        var worstMean = 0.0, worstCubeMean = Double.infinity
        for frame in frames {
            assertTransparentCorner(frame)
            let error = colorError(frame, expected[frame.index])
            let cube = colorError(Self.naiveCube(expected[frame.index]), expected[frame.index])
            XCTAssertLessThan(error.mean, 3, "frame \(frame.index)")
            XCTAssertLessThan(error.mean, cube.mean / 2, "frame \(frame.index): no better than a fixed cube")
            XCTAssertLessThan(error.worstBlock, 3, "frame \(frame.index): dithering should average out")
            worstMean = max(worstMean, error.mean)
            worstCubeMean = min(worstCubeMean, cube.mean)
        }
        print("GIF mean error: at most \(worstMean) codes a frame; a 6×7×6 cube: at least \(worstCubeMean)")
    }

    /// `frame` mapped to the nearest colour of a fixed 6×7×6 cube without dithering: what a
    /// naive GIF writer does, for comparison.
    static func naiveCube(_ frame: RGBA8Frame) -> DecodedRGBAFrame {
        var bytes = frame.byteArray
        let levels = [6, 7, 6]
        for i in stride(from: 0, to: bytes.count, by: 4) {
            for c in 0..<3 {
                let steps = Double(levels[c] - 1)
                bytes[i + c] = UInt8(((Double(bytes[i + c]) / 255 * steps).rounded() / steps * 255).rounded())
            }
        }
        return DecodedRGBAFrame(index: 0, width: frame.width, height: frame.height, rgba: bytes)
    }

    func testAnimatedWebPKeepsFramesTimingColorsAndTransparency() throws {
        let job = try job(format: "webp", path: "out.webp")
        let output = try export(job)
        let animation = try WebPAnimationDecodeBack.decode(path: output.path)
        XCTAssertTrue(animation.isAnimated)
        XCTAssertEqual(animation.width, Self.width)
        XCTAssertEqual(animation.height, Self.height)
        XCTAssertEqual(animation.frames.count, Self.frames)
        XCTAssertEqual(animation.loopCount, 0, "loops forever")
        XCTAssertEqual(animation.durations.reduce(0, +), 1000, accuracy: 2)
        let expected = reference(job)
        var worstMean = 0.0
        for frame in animation.frames {
            // A few covered pixels come back one code short of opaque (254) from the lossy WebP;
            // where exactly (libwebp's alpha encoding or FFmpeg's decoding of it) is not pinned down.
            assertTransparentCorner(frame, opaque: 254)
            let error = colorError(frame, expected[frame.index])
            XCTAssertLessThan(error.mean, 4, "frame \(frame.index)")
            XCTAssertLessThan(error.worstBlock, 4, "frame \(frame.index)")
            worstMean = max(worstMean, error.mean)
        }
        print("WebP mean error: at most \(worstMean) codes a frame")
    }

    /// Lossless: every file holds exactly the rendered frame, alpha included.
    func testPNGSequenceHoldsEveryRenderedFrameExactly() throws {
        let job = try job(format: "png-sequence", path: "frames/")
        let output = try export(job)
        XCTAssertEqual(output.lastPathComponent, "frames")
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        XCTAssertEqual(names, (1...Self.frames).map { String(format: "frame_%05d.png", $0) })
        let expected = reference(job)
        for (n, name) in names.enumerated() {
            let image = try PNGCodec.decode(
                [UInt8](try Data(contentsOf: output.appendingPathComponent(name))))
            XCTAssertEqual(image.width, Self.width)
            XCTAssertEqual(image.height, Self.height)
            XCTAssertEqual(image.rgba, expected[n].byteArray, "\(name) differs from the rendered frame")
        }
        // A second render replaces the earlier sequence whole.
        _ = try export(job)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: output.path).count, Self.frames)
    }

    /// The temp folder of a render killed part-way (its process gone) is removed with its
    /// frames, as a temp file is.
    func testAStalePNGSequenceFolderIsRemoved() throws {
        let pidMax = try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8)
        // No process can have a pid above pid_max.
        let gone = try XCTUnwrap(Int(pidMax.trimmingCharacters(in: .whitespacesAndNewlines))) + 1
        let host = ProcessInfo.processInfo.hostName.filter { $0 != "/" && $0 != "@" }.prefix(64)
        let stale = directory.appendingPathComponent(
            ".frames.kiln-\(gone)-1f2e@\(host.isEmpty ? "localhost" : host)")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: false)
        try Data([1, 2, 3]).write(to: stale.appendingPathComponent("frame_00001.png"))
        var removed: [String] = []
        StaleTemporaryFiles.remove(besides: directory.appendingPathComponent("frames")) { removed.append($0) }
        XCTAssertEqual(removed.count, 1, "\(removed)")
        XCTAssertEqual(try contents(), [])
    }

    /// A folder holding anything but frames is never replaced (nor emptied).
    func testPNGSequenceRefusesAFolderWithOtherFiles() throws {
        let job = try job(format: "png-sequence", path: "frames/")
        let folder = directory.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        XCTAssertThrowsError(try VideoExport(job: job, threads: 2).run()) { error in
            XCTAssertEqual((error as? ExportError)?.exitCode, 73)
            XCTAssertTrue("\(error)".contains("notes.txt"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["notes.txt"])
        XCTAssertEqual(try contents(), ["frames"])
    }

    /// Only H.264 is joined from segments; a segmented export of another format refuses before
    /// rendering anything.
    func testSegmentedExportRefusesOtherFormats() throws {
        let job = try job(format: "gif", path: "out.gif")
        let split = SegmentedExport(
            export: VideoExport(job: job, threads: 2), fingerprint: "f",
            plan: SegmentPlan(frameCount: Self.frames, framesPerSecond: 30, request: .count(3)))
        XCTAssertThrowsError(try split.run()) { error in
            XCTAssertEqual((error as? ExportError)?.exitCode, 65)
            XCTAssertTrue("\(error)".contains("gif cannot be rendered in segments"), "\(error)")
        }
        XCTAssertEqual(try contents(), [])
    }
}
