import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene
import KilnTestSupport
import XCTest

/// Video layers show the frame a player would: clips whose frames carry their number as a
/// barcode (`BarcodeClip`) are placed with trim, offset, speed and loop on a 30 fps timeline,
/// rendered to MP4, decoded back, and every output frame's barcode is compared with the clip
/// frame worked out in exact integer arithmetic.
final class VideoLayerTests: ScratchDirectoryTestCase {
    /// Clip frames are 25 fps; output frames 30 fps. Times below are in ticks of 1/3000 s, a
    /// multiple of both frame lengths (clip frame = 120 ticks, output frame = 100 ticks).
    struct Placement {
        var trimStartMilliseconds = 0
        var trimEndMilliseconds: Int?
        var offsetMilliseconds = 0
        var speed = (numerator: 1, denominator: 1)
        var loop = false

        var json: String {
            var keys = [
                "\"offset\": \(Double(offsetMilliseconds) / 1000)",
                "\"speed\": \(Double(speed.numerator) / Double(speed.denominator))", "\"loop\": \(loop)",
            ]
            var trim = ["\"start\": \(Double(trimStartMilliseconds) / 1000)"]
            if let trimEndMilliseconds { trim.append("\"end\": \(Double(trimEndMilliseconds) / 1000)") }
            keys.append("\"trim\": {\(trim.joined(separator: ", "))}")
            return keys.joined(separator: ", ")
        }

        /// The clip frame shown at output frame `n` of a clip of `clipFrames` frames.
        func expectedFrame(_ n: Int, clipFrames: Int) -> Int {
            let (num, den) = speed
            let start = 3 * trimStartMilliseconds, end = 3 * (trimEndMilliseconds ?? clipFrames * 40)
            // Played ticks of the clip, times the speed's denominator.
            let played = max(0, (100 * n - 3 * offsetMilliseconds) * num)
            let length = (end - start) * den
            if loop { return (start * den + played % length) / (120 * den) }
            // Past the end: the last frame that starts before the trimmed end.
            if played >= length { return (end + 119) / 120 - 1 }
            return (start * den + played) / (120 * den)
        }
    }

    var clip: String { directory.appendingPathComponent("clip.mp4").path }
    let clipFrames = 200

    func renderedNumbers(
        layer: String, width: Int = 64, height: Int = 48, frames: Int = 120, threads: Int = 2
    )
        throws -> [Int?]
    {
        let job = try load(layer: layer, width: width, height: height, frames: frames)
        let summary = try VideoExport(job: job, threads: threads).run()
        var numbers: [Int?] = []
        _ = try VideoDecodeBack.decode(path: summary.output.path) { frame in
            numbers.append(
                BarcodeClip.number(
                    luma: { frame.y[$1 * frame.yStride + $0] }, place: Self.upright(width, height)))
        }
        return numbers
    }

    func load(layer: String, width: Int = 64, height: Int = 48, frames: Int = 120) throws -> Job {
        try JobFiles.decode(
            bytes: Array(
                """
                {"kiln": 1,
                 "output": {"path": "out.mp4", "width": \(width), "height": \(height), "fps": 30,
                            "duration": {"frames": \(frames)}, "crf": 10, "preset": "veryfast", "gop": 30},
                 "layers": [{"type": "solid", "color": "#808080"}, \(layer)]}
                """.utf8), file: "video-test.json", baseDirectory: directory)
    }

    /// Clip pixels → output pixels for a clip drawn at its own size, centred.
    static func upright(_ width: Int, _ height: Int) -> ((Int, Int)) -> (Int, Int) {
        { ($0.0 + (width - BarcodeClip.width) / 2, $0.1 + (height - BarcodeClip.height) / 2) }
    }

    func testTrimOffsetSpeedAndLoopShowTheFramesAPlayerWould() throws {
        try BarcodeClip.writeConstantRate(path: clip, frames: clipFrames, fps: 25)
        let placements = [
            // Looping a trimmed part at 1.5×, starting half a second in.
            Placement(
                trimStartMilliseconds: 400, trimEndMilliseconds: 3200, offsetMilliseconds: 500, speed: (3, 2),
                loop: true),
            // Slow motion that runs out: holds the first frame before the offset, the last after.
            Placement(
                trimStartMilliseconds: 1000, trimEndMilliseconds: 2000, offsetMilliseconds: 1000,
                speed: (3, 4)),
            // The whole clip at 4×, looping: large steps and a wrap back to the start.
            Placement(speed: (4, 1), loop: true),
            // Starting far into the clip: the reader seeks forward instead of decoding 6 s.
            Placement(trimStartMilliseconds: 6200, trimEndMilliseconds: 7000, speed: (1, 4), loop: true),
        ]
        for placement in placements {
            let numbers = try renderedNumbers(
                layer: #"{"type": "video", "path": "clip.mp4", \#(placement.json)}"#)
            XCTAssertEqual(numbers.count, 120)
            for (n, number) in numbers.enumerated() {
                XCTAssertEqual(
                    number, placement.expectedFrame(n, clipFrames: clipFrames),
                    "\(placement.json): output frame \(n)")
            }
        }
    }

    /// Previews and segments ask for frames in any order: each gets the same clip frame a
    /// sequential render does, and increasing times do not seek per frame.
    func testAnyOrderOfRequestsGivesTheSameFrames() throws {
        try BarcodeClip.writeConstantRate(path: clip, frames: clipFrames, fps: 25)
        let placement = Placement(
            trimStartMilliseconds: 400, trimEndMilliseconds: 3200, offsetMilliseconds: 500, speed: (3, 2),
            loop: true)
        let job = try load(layer: #"{"type": "video", "path": "clip.mp4", \#(placement.json)}"#)
        let preview = FramePreview(job: job, threads: 3)
        var generator = SplitMix(state: 19)
        let order = [119, 0, 60, 59, 61, 5, 118] + (0..<20).map { _ in Int(generator.next() % 120) }
        for n in order {
            let frame = try preview.render(frame: n)
            let number = BarcodeClip.number(luma: { Self.luma(frame.pixel(x: $0, y: $1)) })
            XCTAssertEqual(number, placement.expectedFrame(n, clipFrames: clipFrames), "frame \(n)")
        }

        let reader = try VideoClipReader(path: clip, maxPixels: 64 * 48)
        for n in 0..<clipFrames {
            XCTAssertEqual(try reader.positionFrame(atSeconds: Double(n) / 25), Int64(n) * 512)
        }
        XCTAssertEqual(reader.seekCount, 0, "a clip played forward never seeks")
        XCTAssertEqual(try reader.positionFrame(atSeconds: 1), 25 * 512)
        XCTAssertEqual(reader.seekCount, 1, "a jump back seeks once")
        XCTAssertEqual(try reader.positionFrame(atSeconds: 8, excluding: true), 199 * 512)
    }

    /// A clip in a constant box smaller than itself is converted at the drawn size (prefiltered),
    /// and still shows the right frame at every time.
    func testAClipDrawnSmallIsConvertedAtItsDrawnSize() throws {
        try BarcodeClip.writeConstantRate(path: clip, frames: clipFrames, fps: 25)
        let placement = Placement(trimStartMilliseconds: 2000, speed: (1, 2), loop: true)
        let job = try load(
            layer: #"{"type": "video", "path": "clip.mp4", "size": [32, 24], \#(placement.json)}"#)
        let layer = try XCTUnwrap(job.layers.last?.content as? VideoLayer)
        let picture = layer.source.frame(at: PlaybackTiming.ClipTime(seconds: 0, excluding: false))
        XCTAssertEqual([picture.width, picture.height], [32, 24])
        let preview = FramePreview(job: job, threads: 2)
        for n in stride(from: 0, to: 120, by: 7) {
            let frame = try preview.render(frame: n)
            // The half-size box is centred: clip (x, y) is drawn at (16 + x/2, 12 + y/2).
            let number = BarcodeClip.number(
                luma: { Self.luma(frame.pixel(x: $0, y: $1)) }, place: { (16 + $0.0 / 2, 12 + $0.1 / 2) })
            XCTAssertEqual(number, placement.expectedFrame(n, clipFrames: clipFrames), "frame \(n)")
        }
    }

    func testVariableFrameRateClipShowsEachFrameFromItsOwnTime() throws {
        // Irregular spacing: bursts, a long hold, single-millisecond gaps.
        let times: [Int64] = [
            0, 40, 60, 140, 150, 151, 300, 310, 320, 700, 733, 766, 1500, 1510, 2000, 2400, 3000,
        ]
        try BarcodeClip.write(path: clip, millisecondTimes: times)
        let numbers = try renderedNumbers(layer: #"{"type": "video", "path": "clip.mp4"}"#, frames: 100)
        XCTAssertEqual(numbers.count, 100)
        for (n, number) in numbers.enumerated() {
            // Frame k is shown from its time on: 30 · t_k ≤ 1000 · n.
            let expected = times.lastIndex { 30 * $0 <= 1000 * Int64(n) }
            XCTAssertEqual(number, expected, "output frame \(n)")
        }
    }

    func testDisplayMatrixTurnsTheClipAsFFmpegsPlayerDoes() throws {
        // Stored landscape, with the matrix ffprobe reports as "rotation=90": FFmpeg's player
        // (ffmpeg's autorotate) turns it a quarter counterclockwise, taking stored (x, y) to
        // (y, width − 1 − x).
        try BarcodeClip.write(
            path: clip, millisecondTimes: (0..<50).map { Int64($0) * 40 }, displayMatrixDegrees: -90)
        let upright: ((Int, Int)) -> (Int, Int) = { ($0.1, BarcodeClip.width - 1 - $0.0) }
        let facts = try VideoClipReader.probe(path: clip)
        XCTAssertEqual(facts.quarterTurns, 3, "clockwise quarter turns")
        XCTAssertEqual([facts.width, facts.height], [48, 64])
        let job = try load(
            layer: #"{"type": "video", "path": "clip.mp4"}"#, width: 48, height: 64, frames: 30)
        let summary = try VideoExport(job: job, threads: 2).run()
        var numbers: [Int?] = []
        _ = try VideoDecodeBack.decode(path: summary.output.path) { frame in
            numbers.append(BarcodeClip.number(luma: { frame.y[$1 * frame.yStride + $0] }, place: upright))
        }
        XCTAssertEqual(numbers, (0..<30).map { $0 * 25 / 30 })

        // The same mapping read from the ffmpeg program's own autorotated frames, when it is installed.
        guard
            let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-i", clip, "-f", "rawvideo", "-pix_fmt", "gray", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let bytes = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        XCTAssertEqual(bytes.count, 50 * 48 * 64)
        let players = stride(from: 0, to: bytes.count, by: 48 * 64).map { start in
            BarcodeClip.number(luma: { bytes[start + $1 * 48 + $0] }, place: upright)
        }
        XCTAssertEqual(players, (0..<50).map { $0 })
    }

    /// Decoding keeps a bounded window: the reader's memory does not grow with the clip's length.
    func testDecodingMemoryIsFlatInTheClipsLength() throws {
        let long = directory.appendingPathComponent("long.mp4").path
        try BarcodeClip.writeConstantRate(path: long, frames: 1000, fps: 25, gop: 50)
        let reader = try VideoClipReader(path: long, maxPixels: 64 * 48)
        var residentAfter: [Int] = []
        for n in 0..<1000 {
            _ = try reader.positionFrame(atSeconds: Double(n) / 25)
            _ = try reader.pixels()
            if n == 100 || n == 999 { residentAfter.append(Self.residentKilobytes()) }
        }
        // 900 more frames (2.7 MB of RGBA) decoded between the two readings.
        XCTAssertLessThan(residentAfter[1] - residentAfter[0], 1024, "KiB grown while decoding 900 frames")
    }

    static func luma(_ pixel: SIMD4<UInt8>) -> UInt8 {
        let weighted: Double =
            0.2126 * Double(pixel[0]) + 0.7152 * Double(pixel[1]) + 0.0722 * Double(pixel[2])
        return UInt8(weighted.rounded())
    }

    static func residentKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
