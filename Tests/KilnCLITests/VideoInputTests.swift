import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// Video layers from the command line: a clip made by Kiln itself renders into another job, and
/// every way a clip can be unusable is refused by `validate` and `render` alike, before any
/// output exists, with its exit code, the file and the JSON path.
final class VideoInputTests: TemporaryDirectoryTestCase {
    /// Renders a small moving-square clip with Kiln and returns its path.
    func makeClip(name: String = "clip.mp4", seconds: Double = 2, width: Int = 64, height: Int = 48) throws
        -> String
    {
        let job = try write(
            "\(name).json",
            """
            {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 25, "duration": \(seconds),
                                   "preset": "veryfast", "gop": 25},
             "layers": [{"type": "solid", "color": "#000000"},
                        {"type": "shape", "shape": "rect", "size": [20, 20], "fill": "#ffffff",
                         "position": {"keyframes": [{"t": 0, "v": [0, 10]}, {"t": \(seconds), "v": [\(width), 10]}]}}]}
            """)
        let path = directory.appendingPathComponent(name).path
        let made = try KilnProcess.run(["render", job, "-o", path])
        XCTAssertEqual(made.status, 0, made.stderr)
        return path
    }

    func job(video path: String, extra: String = "", seconds: Double = 1, name: String = "card.json") throws
        -> String
    {
        try write(
            name,
            """
            {"kiln": 1, "output": {"width": 128, "height": 96, "fps": 30, "duration": \(seconds), "preset": "veryfast"},
             "layers": [{"type": "solid", "color": "#202020"},
                        {"type": "video", "path": "\(path)", "size": [96, 72], "fit": "fit"\(extra)}]}
            """)
    }

    /// A small MPEG-4 Part 2 clip (made by FFmpeg's own encoder: Kiln does not write that
    /// format). Its decoder's padded pictures are several times the 48×32 frame, and the
    /// frame's area as `max_pixels` refused it ("Operation not permitted").
    func testASmallMPEG4Part2ClipDecodes() throws {
        let clip = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Media/mpeg4-part2-48x32.mp4").path
        let file = try job(video: clip)
        let output = directory.appendingPathComponent("card.mp4").path
        let result = try KilnProcess.run(["render", file, "-o", output, "--progress", "none"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let info = try VideoDecodeBack.decode(path: output)
        XCTAssertEqual(info.decodedFrameCount, 30)
    }

    func testVideoJobValidatesAndRendersWithTransformsAndTransitions() throws {
        _ = try makeClip()
        let file = try job(
            video: "clip.mp4",
            extra:
                #", "speed": 2, "loop": true, "rotation": 10, "effects": [{"blur": 1}, {"grayscale": 1}], "appear": 0.2, "transition": "opacity""#
        )
        let validated = try KilnProcess.run(["validate", file])
        XCTAssertEqual(validated.status, 0, validated.stderr)
        let out = directory.appendingPathComponent("card.mp4").path
        let rendered = try KilnProcess.run(["render", file, "-o", out])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let info = try VideoDecodeBack.decode(path: out)
        assertKilnVideo(info, width: 128, height: 96, frames: 30)
    }

    func testUnusableClipsAreRefusedBeforeAnyOutput() throws {
        let clip = try makeClip()
        let whole = try Data(contentsOf: URL(fileURLWithPath: clip))
        try whole.prefix(whole.count * 2 / 3).write(to: directory.appendingPathComponent("cut.mp4"))
        _ = try write("notes.mp4", "this is a text file, not a video\n")
        // A second of silence: a WAV file with a single audio stream.
        let silence = [Float](repeating: 0, count: 8000)
        try WAVWriter.write(
            left: silence, right: silence, rate: 8000, to: directory.appendingPathComponent("voice.wav"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("folder.mp4"), withIntermediateDirectories: false)
        XCTAssertEqual(mkfifo(directory.appendingPathComponent("pipe.mp4").path, 0o600), 0)
        let cases: [(path: String, extra: String, status: Int32, message: String)] = [
            ("nowhere.mp4", "", 66, "layers[1].path: file not found: nowhere.mp4"),
            (
                "notes.mp4", "", 65,
                "layers[1].path: video \(directory.path)/notes.mp4 is corrupt or not a video file"
            ),
            ("voice.wav", "", 65, "layers[1].path: \(directory.path)/voice.wav holds no video stream"),
            ("cut.mp4", "", 65, "layers[1].path: video \(directory.path)/cut.mp4 is truncated"),
            ("folder.mp4", "", 65, "layers[1].path: 'folder.mp4' is a directory"),
            ("pipe.mp4", "", 65, "pipe.mp4 is a FIFO"),
            ("/dev/zero", "", 65, "/dev/zero is a device"),
            (
                "clip.mp4", #", "trim": {"end": 2.5}"#, 65,
                "layers[1].trim.end: trim end 2.5 s is past the end of clip.mp4 (2 s)"
            ),
            (
                "clip.mp4", #", "trim": {"start": 1.5, "end": 1}"#, 65,
                "layers[1].trim.start: trim start 1.5 s must be before its end (1 s)"
            ),
            ("clip.mp4", #", "speed": 8"#, 65, "layers[1].speed"),
        ]
        for (index, unusable) in cases.enumerated() {
            let file = try job(video: unusable.path, extra: unusable.extra, name: "job\(index).json")
            let out = directory.appendingPathComponent("out\(index).mp4").path
            for command in [["validate", file], ["render", file, "-o", out]] {
                let (process, stdout, stderr) = try KilnProcess.start(command, cwd: directory)
                XCTAssertTrue(
                    KilnProcess.waitForExit(process, timeout: 60), "\(command[0]) \(unusable.path) blocked")
                let result = KilnProcess.collect(process, stdout, stderr)
                XCTAssertEqual(
                    result.status, unusable.status, "\(command[0]) \(unusable.path): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("job\(index).json:"), result.stderr)
                XCTAssertTrue(result.stderr.contains("layers[1]."), result.stderr)
                XCTAssertTrue(
                    result.stderr.contains(unusable.message), "\(unusable.message) in: \(result.stderr)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(unusable.path) left output")
        }
        let left = try contents().filter { $0.hasPrefix("out") || $0.hasPrefix(".") }
        XCTAssertEqual(left, [], "no output and no temporary files")
    }

    /// Segments start mid-clip and threads race: a render in 3 segments and one on 1 thread give
    /// the frames (and pixels) of a single render on every core, and each frame shows the clip
    /// frame its time asks for.
    func testSegmentsAndThreadCountsRenderTheSameFrames() throws {
        try BarcodeClip.writeConstantRate(
            path: directory.appendingPathComponent("barcode.mp4").path, frames: 100, fps: 25)
        let file = try write(
            "bars.json",
            """
            {"kiln": 1, "output": {"width": 64, "height": 48, "fps": 30, "duration": {"frames": 90},
                                   "crf": 10, "preset": "veryfast", "gop": 15},
             "layers": [{"type": "video", "path": "barcode.mp4", "trim": {"start": 0.8}, "speed": 1.25, "loop": true}]}
            """)
        var hashes: [String] = []
        for (name, options) in [
            ("single", [String]()), ("split", ["--segments", "3"]), ("one", ["--threads", "1"]),
        ] {
            let out = directory.appendingPathComponent("\(name).mp4").path
            let log = directory.appendingPathComponent("\(name).txt").path
            let result = try KilnProcess.run(["render", file, "-o", out, "--frame-hashes", log] + options)
            XCTAssertEqual(result.status, 0, result.stderr)
            hashes.append(try String(contentsOfFile: log, encoding: .utf8))
            var numbers: [Int?] = []
            _ = try VideoDecodeBack.decode(path: out) { frame in
                numbers.append(BarcodeClip.number(luma: { frame.y[$1 * frame.yStride + $0] }))
            }
            // Clip frame = 20 + n · 25/30 · 1.25 (= n · 25/24), wrapped in the 80 frames after 20.
            XCTAssertEqual(numbers, (0..<90).map { 20 + $0 * 25 / 24 % 80 }, name)
        }
        XCTAssertEqual(hashes[0].split(separator: "\n").count, 90)
        XCTAssertEqual(hashes[1], hashes[0], "3 segments")
        XCTAssertEqual(hashes[2], hashes[0], "1 thread")
    }

    /// A render that plays 40 s of a clip keeps no more memory than one that loops 2 s: frames are
    /// decoded as they are needed and only a few are held, never the clip.
    func testPeakMemoryIsFlatInTheClipsLength() throws {
        _ = try makeClip(name: "short.mp4", seconds: 2, width: 320, height: 240)
        _ = try makeClip(name: "long.mp4", seconds: 40, width: 320, height: 240)
        var peaks: [String: Int] = [:]
        for name in ["short.mp4", "long.mp4"] {
            let file = try job(
                video: name, extra: #", "speed": 4, "loop": true"#, seconds: 10, name: "\(name).job.json")
            let run = try KilnProcess.runMeasuringPeakMemory([
                "render", file, "-o", directory.appendingPathComponent("\(name).out.mp4").path,
            ])
            XCTAssertEqual(run.status, 0)
            peaks[name] = run.peakKiB
        }
        let short = try XCTUnwrap(peaks["short.mp4"]), long = try XCTUnwrap(peaks["long.mp4"])
        // 1000 frames of 320×240 RGBA are 300 MiB: holding the clip would show at once.
        XCTAssertLessThan(long - short, 16 * 1024, "peak KiB: short clip \(short), long clip \(long)")
    }
}
