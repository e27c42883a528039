import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// Drafts from the command line: `render --scale/--size` and `--range/--duration`, `preview
/// --scale/--size`, decoded back and compared with the full render; and every way they are refused.
final class DraftCLITests: TemporaryDirectoryTestCase {
    /// 3 s at 30 fps, 128x72, lossless (crf 0), so decoded frames are the rendered ones: a mesh
    /// whose corner moves, and a blurred, stroked card that slides across it.
    func animatedJob(audio: String? = nil) throws -> String {
        try write(
            "anim.json",
            """
            {"kiln": 1,
             "output": {"path": "out/anim.mp4", "width": 128, "height": 72, "fps": 30, "duration": 3,
                        "crf": 0, "preset": "ultrafast"},
             "layers": [
               {"type": "meshGradient", "width": 2, "height": 2,
                "points": [[0,0],[1,0],[0,1],{"keyframes": [{"t": 0, "v": [1,1]}, {"t": 3, "v": [0.4,0.5]}]}],
                "colors": ["#203060","#60a0ff","#ff8040","#f0e0a0"]},
               {"type": "shape", "shape": "roundedRect", "size": [40, 30], "cornerRadius": 8,
                "fill": "#ffffff", "stroke": "#102040", "strokeWidth": 3,
                "position": {"keyframes": [{"t": 0, "v": [20, 36]}, {"t": 3, "v": [108, 36]}]},
                "effects": [{"blur": 2}]}]\(audio.map { #", "audio": \#($0)"# } ?? "")}
            """)
    }

    func render(_ job: String, _ arguments: [String]) throws -> KilnProcess.Result {
        try KilnProcess.run(["render", job, "--progress", "none"] + arguments)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A `--frame-hashes` file: frame number → digest.
    func frameHashes(_ file: String) throws -> [Int: Substring] {
        var hashes: [Int: Substring] = [:]
        for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let frame = Int(parts[0]) { hashes[frame] = parts[1] }
        }
        return hashes
    }

    /// Each decoded frame's luma plane.
    func lumaFrames(_ file: String) throws -> (info: VideoStreamInfo, frames: [[UInt8]]) {
        var frames: [[UInt8]] = []
        let info = try VideoDecodeBack.decode(path: file) { frame in
            var plane: [UInt8] = []
            for row in 0..<frame.height {
                plane += frame.y[(row * frame.yStride)..<(row * frame.yStride + frame.width)]
            }
            frames.append(plane)
        }
        return (info, frames)
    }

    /// `--range` and `--duration`: exactly those frames, the very pixels of the full render's
    /// (the frame digests match, numbered as the job's frames), starting at time 0.
    func testARangeIsTheFullRendersFramesRetimedToStartAtZero() throws {
        let job = try animatedJob()
        let full = try render(job, ["-o", path("full.mp4"), "--frame-hashes", path("full.txt")])
        XCTAssertEqual(full.status, 0, full.stderr)
        let whole = try frameHashes(path("full.txt"))
        XCTAssertEqual(whole.count, 90)

        for (arguments, frames) in [
            (["--range", "1-2"], 30..<60), (["--range", "2.5-"], 75..<90), (["--range", "-0.5"], 0..<15),
            (["--duration", "0.4"], 0..<12), (["--range", "0:01-0:01.5"], 30..<45),
        ] {
            let name = arguments.joined().replacingOccurrences(of: ":", with: "_")
            let result = try render(
                job, arguments + ["-o", path("\(name).mp4"), "--frame-hashes", path("\(name).txt")])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.contains("kiln: draft: "), result.stderr)
            XCTAssertEqual(
                try frameHashes(path("\(name).txt")), whole.filter { frames.contains($0.key) },
                "\(arguments): the full render's frames \(frames)")
            let info = try VideoDecodeBack.decode(path: path("\(name).mp4"))
            assertKilnVideo(info, width: 128, height: 72, frames: frames.count)
            XCTAssertEqual(info.presentationTimestamps.first ?? -1, 0, accuracy: 1e-6)
            for (n, t) in info.presentationTimestamps.enumerated() {
                XCTAssertEqual(t, Double(n) / 30, accuracy: 1e-6, "\(arguments) frame \(n)")
            }
            XCTAssertEqual(info.containerDurationSeconds, Double(frames.count) / 30, accuracy: 1e-3)
        }
        // The frame on screen at 1.01 s is frame 30 (1.0 to 1.033 s); 1:00.5 is past the end.
        let refused = try render(job, ["--range", "1.01-1:00.5", "-o", path("x.mp4")])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("--range ends at 60.5 s, past the end"), refused.stderr)
        let odd = try render(
            job, ["--range", "1.01-1.5", "-o", path("odd.mp4"), "--frame-hashes", path("odd.txt")])
        XCTAssertEqual(odd.status, 0, odd.stderr)
        XCTAssertEqual(
            try frameHashes(path("odd.txt")).keys.sorted(), Array(30..<45),
            "from the frame shown at 1.01 s to the last one starting before 1.5 s")
    }

    /// `--scale 0.5`: half the pixels, every frame, the full render's picture averaged over 2×2
    /// blocks (lossless, so the decoded luma is the rendered luma).
    func testAScaledRenderIsTheFullPictureSmaller() throws {
        let job = try animatedJob()
        XCTAssertEqual(try render(job, ["-o", path("full.mp4")]).status, 0)
        let result = try render(job, ["--scale", "0.5", "-o", path("half.mp4")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("kiln: draft: 64x36 of the job's 128x72"), result.stderr)
        let full = try lumaFrames(path("full.mp4")), half = try lumaFrames(path("half.mp4"))
        assertKilnVideo(half.info, width: 64, height: 36, frames: 90)
        XCTAssertEqual(half.info.containerDurationSeconds, 3, accuracy: 1e-3)
        var worstMean = 0.0
        for (index, (big, small)) in zip(full.frames, half.frames).enumerated() where index % 15 == 0 {
            var total = 0.0
            for y in 0..<36 {
                for x in 0..<64 {
                    let block = [0, 1, 128, 129].map { Double(big[(2 * y) * 128 + 2 * x + $0]) }
                    total += abs(block.reduce(0, +) / 4 - Double(small[y * 64 + x]))
                }
            }
            worstMean = max(worstMean, total / Double(64 * 36))
        }
        // Measured 0.54 to 0.71 over the frames: dither, and the anti-aliased edges of a small
        // blurred card that are a large part of so small a frame.
        XCTAssertLessThan(worstMean, 1.0, "mean luma error against the full render box-filtered")

        // 128 × 0.3 = 38.4 and 72 × 0.3 = 21.6: rounded to the nearest even sides, and said so.
        let rounded = try render(job, ["--scale", "0.3", "--duration", "0.1", "-o", path("rounded.mp4")])
        XCTAssertEqual(rounded.status, 0, rounded.stderr)
        XCTAssertTrue(
            rounded.stderr.contains(
                "kiln: draft: 38x22 of the job's 128x72 (×0.3 is 38.40x21.60, rounded to even sides for H.264 "
                    + "yuv420p); 0-0.1 s (frames 0-2 of 90)"), rounded.stderr)
        assertKilnVideo(
            try VideoDecodeBack.decode(path: path("rounded.mp4")), width: 38, height: 22, frames: 3)

        let sized = try render(job, ["--size", "x20", "-o", path("small.mp4")])
        XCTAssertEqual(sized.status, 0, sized.stderr)
        XCTAssertTrue(sized.stderr.contains("36x20 of the job's 128x72"), sized.stderr)
        assertKilnVideo(
            try VideoDecodeBack.decode(path: path("small.mp4")), width: 36, height: 20, frames: 90)
    }

    /// With the job's audio, a range's soundtrack is the full render's over the same span: the
    /// offset and the fade-in continue where the range starts (not restarted), and it is as long
    /// as the video.
    func testARangeCutsTheAudioToTheSameSpan() throws {
        _ = try tone(seconds: 4)
        let job = try animatedJob(audio: #"{"path": "tone.flac", "offset": 1.5, "fadeIn": 1}"#)
        XCTAssertEqual(try render(job, ["-o", path("full.mp4")]).status, 0)
        let result = try render(job, ["--range", "1-2.6", "--scale", "0.25", "-o", path("part.mp4")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let video = try VideoDecodeBack.decode(path: path("part.mp4"))
        assertKilnVideo(video, width: 32, height: 18, frames: 48)
        XCTAssertTrue(video.hasAudio)
        let (full, _) = try AudioFileReader(path: path("full.mp4")).readAll()
        let reader = try AudioFileReader(path: path("part.mp4"))
        let (part, _) = try reader.readAll()
        XCTAssertEqual(reader.decodeErrors, 0)
        XCTAssertEqual(Double(part.count), 1.6 * 48_000, accuracy: 1024, "one AAC frame of the video's 1.6 s")
        func rms(_ samples: [Float], _ from: Double, _ to: Double) -> Double {
            let slice = samples[Int(from * 48_000)..<Int(to * 48_000)]
            return (slice.reduce(0.0) { $0 + Double($1 * $1) } / Double(slice.count)).squareRoot()
        }
        XCTAssertLessThan(rms(part, 0, 0.45), 0.001, "silent until the offset, 0.5 s into the range")
        // Windows of the range against the same timeline windows of the full render: the fade
        // rises from 1.5 s to 2.5 s of the job, 0.5 s to 1.5 s of the range.
        for start in [0.7, 1.0, 1.3, 1.5] {
            let expected = rms(full, start + 1, start + 1.1)
            XCTAssertGreaterThan(expected, 0.01)
            XCTAssertEqual(
                rms(part, start, start + 0.1), expected, accuracy: 0.05 * expected, "at \(start) s")
        }
    }

    /// Without -o a draft never replaces the full render: it goes beside it as NAME.draft.mp4.
    func testADraftWithoutAnOutputGoesBesideTheJobsOutput() throws {
        let job = try animatedJob()
        let result = try render(job, ["--duration", "0.2", "--scale", "0.5"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("kiln: draft: 64x36 of the job's 128x72; 0-0.2 s (frames 0-5 of 90)"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("out")), ["anim.draft.mp4"])
        assertKilnVideo(
            try VideoDecodeBack.decode(path: path("out/anim.draft.mp4")), width: 64, height: 36, frames: 6)
    }

    /// `preview --scale/--size`: the same frame, smaller.
    func testPreviewTakesTheDraftSize() throws {
        let job = try animatedJob()
        for (arguments, size) in [(["--scale", "0.5"], [64, 36]), (["--size", "32x18"], [32, 18])] {
            let still = path("still-\(size[0]).png")
            let result = try KilnProcess.run(["preview", job, "--at", "1.5", "-o", still] + arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            let image = try ImageFile.decode(URL(fileURLWithPath: still))
            XCTAssertEqual([image.width, image.height], size)
        }
        let refused = try KilnProcess.run([
            "preview", job, "--at", "1", "--range", "1-2", "-o", path("r.png"),
        ])
        XCTAssertEqual(refused.status, 64, "preview picks its time with --at or --frame")
    }

    /// Every refusal is a usage error (64) naming the option and what it expects, and writes nothing.
    func testBadDraftOptionsAreUsageErrors() throws {
        let job = try animatedJob()
        let cases: [([String], String)] = [
            (["--scale", "2"], "--scale expects a number in 0.05…1"),
            (["--scale", "0.01"], "--scale expects a number in 0.05…1"),
            (["--scale", "abc"], "--scale expects a number"),
            (["--scale", "0.5", "--size", "64x36"], "give --scale or --size, not both"),
            (["--size", "64x64"], "--size 64x64 is not the job's shape (128x72)"),
            (["--size", "256x"], "--size 256x is larger than the job (128x72)"),
            (["--size", "big"], "--size expects WIDTHxHEIGHT in pixels"),
            (
                ["--scale", "0.1"],
                "--scale 0.1 of the job's 128x72 makes 12x8 pixels; each side must be at least 16"
            ),
            (
                ["--range", "2-9"],
                "--range ends at 9 s, past the end: the job lasts 3 s (90 frames at 30 fps)"
            ),
            (["--range", "3-"], "--range starts at 3 s, at or past the end"),
            (["--range", "2-1"], "--range 2-1 is empty"),
            (["--range", "1:99-"], "--range expects times in seconds"),
            (["--range", "1"], "--range expects START-END"),
            (["--duration", "4"], "--duration 4 is longer than the job"),
            (["--duration", "0"], "--duration expects a number of seconds above 0"),
            (["--range", "1-2", "--duration", "1"], "give --range or --duration, not both"),
        ]
        for (arguments, message) in cases {
            let result = try render(job, arguments + ["-o", path("bad.mp4")])
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("kiln: error: " + message), "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("kiln render --help"), result.stderr)
        }
        XCTAssertEqual(try contents(), ["anim.json"])
    }

    func testHelpExplainsTheDraftOptions() throws {
        let help = try KilnProcess.run(["render", "--help"])
        for text in [
            "--scale F", "--size WxH", "--range A-B", "--duration SECONDS", "NAME.draft.mp4", "even",
        ] {
            XCTAssertTrue(help.stdout.contains(text), text)
        }
        let preview = try KilnProcess.run(["preview", "--help"])
        XCTAssertTrue(preview.stdout.contains("--scale F") && preview.stdout.contains("--size WxH"))
        XCTAssertFalse(preview.stdout.contains("--range"))
    }
}
