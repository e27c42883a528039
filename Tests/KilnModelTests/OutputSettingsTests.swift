import Foundation
import KilnModel
import XCTest

final class OutputSettingsTests: XCTestCase {
    func testRational() {
        XCTAssertEqual(Rational(numerator: 60, denominator: 2), Rational(numerator: 30, denominator: 1))
        XCTAssertEqual(Rational(numerator: 3, denominator: -6)?.numerator, -1)
        XCTAssertEqual(Rational(numerator: 3, denominator: -6)?.denominator, 2)
        XCTAssertNil(Rational(numerator: 1, denominator: 0))
        XCTAssertEqual(Rational(parsing: "30000/1001")?.description, "30000/1001")
        XCTAssertEqual(Rational(parsing: " 30 ")?.description, "30")
        XCTAssertNil(Rational(parsing: "30000/0"))
        XCTAssertNil(Rational(parsing: "1/2/3"))
        XCTAssertNil(Rational(parsing: "abc"))
        XCTAssertEqual(Rational(parsing: "30000/1001")?.doubleValue ?? 0, 29.97002997, accuracy: 1e-8)
    }

    private func output(_ fields: String) -> (OutputSettings?, [Diagnostic]) {
        let json =
            #"{"kiln": 1, "output": {"width": 1920, "height": 1080, "#
            + fields + #"}, "layers": []}"#
        do {
            let job = try JobLoader.decode(
                bytes: Array(json.utf8), file: "jobs/intro.json",
                baseDirectory: URL(fileURLWithPath: "/work/jobs"),
                kinds: [])
            return (job.output, [])
        } catch {
            guard case .invalid(let diagnostics) = error else { return (nil, []) }
            return (nil, diagnostics)
        }
    }

    /// The format is the one named, else the path's extension's (any case), else H.264; the
    /// default path takes the format's extension, or is a folder for a PNG sequence.
    func testFormatFollowsThePathUnlessNamed() throws {
        func decoded(_ fields: String) throws -> OutputSettings {
            let (settings, diagnostics) = output(#""fps": 30, "duration": 1, "# + fields)
            return try XCTUnwrap(settings, "\(diagnostics)")
        }
        let cases: [(String, OutputFormat, Bool, String)] = [
            (#""path": "a.mp4""#, .h264, false, "/work/jobs/a.mp4"),
            (#""path": "a.M4V""#, .h264, false, "/work/jobs/a.M4V"),
            (#""path": "a.webm""#, .vp9, false, "/work/jobs/a.webm"),
            (#""path": "a.MOV""#, .prores4444, false, "/work/jobs/a.MOV"),
            (#""path": "a.gif""#, .gif, false, "/work/jobs/a.gif"),
            (#""path": "a.webp""#, .webp, false, "/work/jobs/a.webp"),
            (#""path": "seq/""#, .pngSequence, false, "/work/jobs/seq"),
            (#""path": "a.bin""#, .h264, false, "/work/jobs/a.bin"),
            (#""path": "a.mp4", "format": "hevc""#, .hevc, true, "/work/jobs/a.mp4"),
            (#""path": "a.bin", "format": "gif""#, .gif, true, "/work/jobs/a.bin"),
            (#""format": "vp9""#, .vp9, true, "/work/jobs/intro.webm"),
            (#""format": "png-sequence""#, .pngSequence, true, "/work/jobs/intro-frames"),
            ("\"crf\": 18", .h264, false, "/work/jobs/intro.mp4"),
        ]
        for (fields, format, named, path) in cases {
            let settings = try decoded(fields)
            XCTAssertEqual(settings.format, format, fields)
            XCTAssertEqual(settings.formatIsNamed, named, fields)
            XCTAssertEqual(settings.path.path, path, fields)
        }
        XCTAssertEqual(try decoded(#""path": "a.webm""#).preset, "good", "libvpx's default deadline")
        XCTAssertEqual(try decoded(#""path": "a.webm""#).crf, 31)
        XCTAssertEqual(try decoded(#""path": "a.webm", "crf": 40, "preset": "best""#).crf, 40)
    }

    func testFrameRateForms() {
        XCTAssertEqual(
            output(#""fps": 30, "duration": 1"#).0?.frameRate, Rational(numerator: 30, denominator: 1))
        XCTAssertEqual(
            output(#""fps": "30000/1001", "duration": 1"#).0?.frameRate,
            Rational(numerator: 30000, denominator: 1001))
        XCTAssertEqual(
            output(#""fps": 29.97, "duration": 1"#).0?.frameRate,
            Rational(numerator: 30000, denominator: 1001))
        XCTAssertEqual(
            output(#""fps": 23.976, "duration": 1"#).0?.frameRate,
            Rational(numerator: 24000, denominator: 1001))
        XCTAssertEqual(
            output(#""fps": 59.94, "duration": 1"#).0?.frameRate,
            Rational(numerator: 60000, denominator: 1001))
        XCTAssertEqual(
            output(#""fps": 12.5, "duration": 1"#).0?.frameRate, Rational(numerator: 25, denominator: 2))
        XCTAssertEqual(
            output(#""fps": 240, "duration": 1"#).0?.frameRate, Rational(numerator: 240, denominator: 1))
        XCTAssertEqual(
            output(#""fps": 241, "duration": 1"#).1.map(\.message),
            ["frame rate must be > 0 and ≤ 240, got 241"])
        XCTAssertEqual(
            output(#""fps": "480/1", "duration": 1"#).1.map(\.message),
            ["frame rate must be > 0 and ≤ 240, got 480"])
        // Issue 20, problem 7: Rational reduced these to 30/1 and 1/30.
        for negative in ["-30/-1", "30/-1", "-30", "-1/-30"] {
            XCTAssertEqual(
                output(#""fps": "\#(negative)", "duration": 1"#).1.map(\.message),
                ["invalid frame rate '\(negative)'; the numerator and denominator must be positive"])
        }
        for zero in ["0/1", "0"] {
            XCTAssertEqual(
                output(#""fps": "\#(zero)", "duration": 1"#).1.map(\.message),
                ["frame rate must be > 0 and ≤ 240, got 0"])
        }
        XCTAssertEqual(
            output(#""fps": "99999999999999999999/1", "duration": 1"#).1.map(\.message).first?.hasPrefix(
                "invalid frame rate"), true)
        XCTAssertEqual(
            output(#""fps": true, "duration": 1"#).1.map(\.message),
            [#"expected a frame rate (a number or a string like "30000/1001"), got a boolean"#])
    }

    func testDefaultsAndDurationForms() throws {
        let settings = try XCTUnwrap(output(#""fps": 30, "duration": 6"#).0)
        XCTAssertEqual(settings.path, URL(fileURLWithPath: "/work/jobs/intro.mp4"))
        XCTAssertEqual(settings.frameCount, 180)
        XCTAssertEqual(settings.gop, 60)
        XCTAssertEqual(settings.crf, 18)
        XCTAssertEqual(settings.preset, "medium")
        XCTAssertEqual(settings.durationSeconds, 6)

        XCTAssertEqual(output(#""fps": 30, "duration": {"frames": 7}"#).0?.frameCount, 7)
        XCTAssertEqual(output(#""fps": 30, "duration": {"seconds": 0.5}"#).0?.frameCount, 15)
        XCTAssertEqual(output(#""fps": 30, "duration": 0.001"#).0?.frameCount, 1)
        XCTAssertEqual(output(#""fps": "30000/1001", "duration": 10"#).0?.frameCount, 300)
        var expected = OutputSettings(
            path: URL(fileURLWithPath: "/work/out/a.mp4"), width: 1920, height: 1080,
            frameRate: Rational(numerator: 24, denominator: 1)!, frameCount: 24, crf: 23.5,
            preset: "veryfast", gop: 12)
        (expected.crfIsNamed, expected.presetIsNamed) = (true, true)
        XCTAssertEqual(
            output(
                #""fps": 24, "duration": 1, "gop": 12, "crf": 23.5, "preset": "veryfast", "path": "../out/a.mp4""#
            ).0, expected)
    }

    /// Another format keeps a written crf and preset only if its encoder reads them alike, and
    /// without a kept path the output gets the format's extension or frames folder.
    func testReformattingKeepsOnlySettingsTheNewEncoderReadsAlike() throws {
        let settings = try XCTUnwrap(
            output(#""fps": 24, "duration": 1, "crf": 23, "preset": "veryfast", "path": "../out/a.mp4""#).0)
        let hevc = settings.reformatted(as: .hevc, keepingPath: true)
        XCTAssertEqual([hevc.crf], [23])
        XCTAssertEqual(hevc.preset, "veryfast")
        XCTAssertEqual(hevc.path, settings.path)
        let vp9 = settings.reformatted(as: .vp9, keepingPath: false)
        XCTAssertEqual([vp9.crf], [31])
        XCTAssertEqual(vp9.preset, "good")
        XCTAssertEqual(vp9.path.path, "/work/out/a.webm")
        XCTAssertEqual(settings.droppedSettings(as: .vp9), ["crf", "preset"])
        XCTAssertEqual(
            settings.reformatted(as: .pngSequence, keepingPath: false).path.path, "/work/out/a-frames")
    }

    func testDurationLimits() {
        XCTAssertEqual(
            output(#""fps": 1, "duration": {"frames": 100000}"#).1.map(\.message),
            ["100000 frames at 1 fps last 100000 s, longer than the 24-hour limit"])
        XCTAssertEqual(
            output(#""fps": 30, "duration": 90000"#).1.map(\.message),
            ["duration 90000 s is longer than the 24-hour limit (86400 s)"])
        XCTAssertEqual(
            output(#""fps": 30, "duration": {"frames": 0}"#).1.map(\.message),
            ["0 is out of range 1…10000000"])
        XCTAssertEqual(
            output(#""fps": 30, "duration": {"frame": 3}"#).1.map(\.message),
            ["unknown key 'frame'; did you mean 'frames'?"])
    }

    func testAnimatedCrfIsRejected() {
        XCTAssertEqual(
            output(#""fps": 30, "duration": 1, "crf": {"keyframes": [{"t": 0, "v": 18}]}"#).1.map(\.message),
            ["expected a number, got an object (this value cannot be animated)"])
    }

    func testFrameTimesAreExact() throws {
        let settings = OutputSettings(
            path: URL(fileURLWithPath: "/tmp/x.mp4"), width: 16, height: 16,
            frameRate: try XCTUnwrap(Rational(parsing: "30000/1001")), frameCount: 3000)
        XCTAssertEqual(settings.time(ofFrame: 0), 0)
        XCTAssertEqual(settings.time(ofFrame: 1000), 1_001_000.0 / 30_000.0)  // 33.3666…
        XCTAssertEqual(settings.time(ofFrame: 1000), 33.366666666666667)
        XCTAssertEqual(settings.time(ofFrame: 1001), 1_002_001.0 / 30_000.0)  // 33.400033…
        XCTAssertEqual(settings.time(ofFrame: 30000), 1001)
        XCTAssertEqual(settings.durationSeconds, 100.1, accuracy: 1e-12)
        XCTAssertEqual(settings.gop, 60)
    }
}
