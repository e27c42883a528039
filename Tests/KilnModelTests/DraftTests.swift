import Foundation
import KilnModel
import XCTest

/// What `--scale`, `--size`, `--range` and `--duration` make of a job's output, and every way
/// they are refused.
final class DraftTests: XCTestCase {
    private func output(width: Int = 1920, height: Int = 1080, fps: Rational = rate(30), frames: Int = 300)
        -> OutputSettings
    {
        OutputSettings(
            path: URL(fileURLWithPath: "/renders/intro.mp4"), width: width, height: height, frameRate: fps,
            frameCount: frames)
    }

    private static func rate(_ numerator: Int, _ denominator: Int = 1) -> Rational {
        Rational(numerator: numerator, denominator: denominator)!
    }

    private func refusal(_ make: () throws(DraftError) -> Any) -> String {
        do {
            let made = try make()
            XCTFail("expected a refusal, got \(made)")
            return ""
        } catch {
            return error.message
        }
    }

    func testScaleKeepsTheLayoutSizeAndRoundsToEvenPixels() throws {
        let half = try Draft(size: .scale(0.5)).applied(to: output())
        XCTAssertEqual(
            [half.width, half.height, half.layoutWidth, half.layoutHeight], [960, 540, 1920, 1080])
        XCTAssertEqual([half.startFrame, half.frameCount], [0, 300], "the frames are the job's")
        // 1920 × 0.3 = 576, 1080 × 0.3 = 324: even already. 1080 × 0.35 = 378, 1920 × 0.35 = 672.
        let third = try Draft(size: .scale(0.3)).applied(to: output())
        XCTAssertEqual([third.width, third.height], [576, 324])
        // 1000 × 0.33 = 330, 562 × 0.33 = 185.46 → 186 (the nearest even number).
        let odd = try Draft(size: .scale(0.33)).applied(to: output(width: 1000, height: 562))
        XCTAssertEqual([odd.width, odd.height], [330, 186])
        let whole = try Draft(size: .scale(1)).applied(to: output())
        XCTAssertEqual(whole, output(), "scale 1 is the job itself")
    }

    func testScaleOutsideItsRangeOrTooSmallIsRefused() {
        for factor in [0, 0.04, 1.01, 2, .infinity, .nan] {
            XCTAssertTrue(
                refusal { () throws(DraftError) in try Draft(size: .scale(factor)).applied(to: output()) }
                    .hasPrefix("--scale expects a number in 0.05…1"), "\(factor)")
        }
        XCTAssertEqual(
            refusal { () throws(DraftError) in
                try Draft(size: .scale(0.05)).applied(to: output(width: 160, height: 90))
            },
            "--scale 0.05 of the job's 160x90 makes 8x4 pixels; each side must be at least 16")
    }

    func testSizeForms() throws {
        XCTAssertEqual(try DraftSize(sizeText: "640x360"), .pixels(width: 640, height: 360))
        XCTAssertEqual(try DraftSize(sizeText: "640X360"), .pixels(width: 640, height: 360))
        XCTAssertEqual(try DraftSize(sizeText: "640×360"), .pixels(width: 640, height: 360))
        XCTAssertEqual(try DraftSize(sizeText: "640x"), .pixels(width: 640, height: nil))
        XCTAssertEqual(try DraftSize(sizeText: "x360"), .pixels(width: nil, height: 360))
        for bad in [
            "", "x", "640", "640x360x2", "-640x360", "640x-360", "0x360", "6 40x360", "axb", "640x360.5",
        ] {
            XCTAssertTrue(
                refusal { () throws(DraftError) in try DraftSize(sizeText: bad) }.hasPrefix(
                    "--size expects WIDTHxHEIGHT in pixels"), "'\(bad)'")
        }
        let one = try Draft(size: .pixels(width: 640, height: nil)).applied(to: output())
        XCTAssertEqual([one.width, one.height], [640, 360])
        let other = try Draft(size: .pixels(width: nil, height: 100)).applied(to: output())
        XCTAssertEqual([other.width, other.height], [178, 100], "177.8 rounds to the nearest even width")
        let rounded = try Draft(size: .pixels(width: 641, height: 361)).applied(to: output())
        XCTAssertEqual([rounded.width, rounded.height], [642, 362])
        let portrait = try Draft(size: .pixels(width: 540, height: 960)).applied(
            to: output(width: 1080, height: 1920))
        XCTAssertEqual([portrait.width, portrait.height, portrait.layoutWidth], [540, 960, 1080])
    }

    func testSizeOfAnotherShapeOrLargerThanTheJobIsRefused() {
        XCTAssertEqual(
            refusal { () throws(DraftError) in
                try Draft(size: .pixels(width: 640, height: 480)).applied(to: output())
            },
            "--size 640x480 is not the job's shape (1920x1080): a draft keeps the job's layout, only smaller, "
                + "so give a size of that shape (e.g. --size 640x360, or one side: --size 640x) or use --scale"
        )
        // Within 1 % is the job's shape: 640x362 is 0.55 % taller.
        XCTAssertNoThrow(try Draft(size: .pixels(width: 640, height: 362)).applied(to: output()))
        XCTAssertEqual(
            refusal { () throws(DraftError) in
                try Draft(size: .pixels(width: 3840, height: nil)).applied(to: output())
            },
            "--size 3840x is larger than the job (1920x1080): a draft is at most the job's size")
        XCTAssertTrue(
            refusal { () throws(DraftError) in
                try Draft(size: .pixels(width: nil, height: 8)).applied(to: output())
            }.hasSuffix("makes 14x8 pixels; each side must be at least 16"))
    }

    func testRangeFormsAndFrames() throws {
        XCTAssertEqual(try DraftSpan(rangeText: "2-5"), .range(from: 2, to: 5))
        XCTAssertEqual(try DraftSpan(rangeText: "2.5-"), .range(from: 2.5, to: nil))
        XCTAssertEqual(try DraftSpan(rangeText: "-5"), .range(from: nil, to: 5))
        XCTAssertEqual(try DraftSpan(rangeText: "1:30-2:00.5"), .range(from: 90, to: 120.5))
        XCTAssertEqual(try DraftSpan(rangeText: "1:00:00-1:00:01"), .range(from: 3600, to: 3601))

        func frames(_ text: String, _ settings: OutputSettings? = nil) throws -> Range<Int> {
            try DraftSpan(rangeText: text).frames(of: settings ?? output())
        }
        XCTAssertEqual(try frames("2-5"), 60..<150)
        XCTAssertEqual(try frames("2-"), 60..<300)
        XCTAssertEqual(try frames("-5"), 0..<150)
        XCTAssertEqual(try frames("0-10"), 0..<300, "the whole job")
        // The frame on screen at A (60 starts at 2.0 and shows until 2.0333); up to the last frame
        // starting before B (150 starts at 5.0, so 5.01 takes it too).
        XCTAssertEqual(try frames("2.01-5.01"), 60..<151)
        XCTAssertEqual(try frames("4.1-4.2"), 123..<126, "4.1 × 30 is 122.99999999999999, still frame 123")
        XCTAssertEqual(try frames("9.99-"), 299..<300, "inside the last frame: that frame")
        XCTAssertEqual(try frames("3-3.001"), 90..<91, "shorter than a frame: the one frame")
        // NTSC: frame 60 starts at 60 × 1001 / 30000 = 2.002 s.
        let ntsc = output(fps: Self.rate(30000, 1001), frames: 300)
        XCTAssertEqual(try frames("2.002-", ntsc), 60..<300)
        XCTAssertEqual(try frames("2-", ntsc), 59..<300, "2.0 s is inside frame 59 at 29.97 fps")

        let drafted = try Draft(span: .range(from: 2, to: 5)).applied(to: output())
        XCTAssertEqual([drafted.startFrame, drafted.frameCount, drafted.width], [60, 90, 1920])
        XCTAssertEqual(drafted.timelineTime(ofFrame: 0), 2)
        XCTAssertEqual(drafted.durationSeconds, 3)
        XCTAssertEqual(try Draft(span: .duration(1.5)).applied(to: output()).frameCount, 45)
    }

    func testRangesOutsideTheJobAreRefused() {
        func refused(_ span: DraftSpan) -> String {
            refusal { () throws(DraftError) in try Draft(span: span).applied(to: output()) }
        }
        XCTAssertEqual(
            refused(.range(from: 9, to: 12)),
            "--range ends at 12 s, past the end: the job lasts 10 s (300 frames at 30 fps); write '9-' to "
                + "render to the end")
        XCTAssertEqual(
            refused(.range(from: 10, to: nil)),
            "--range starts at 10 s, at or past the end: the job lasts 10 s (300 frames at 30 fps)")
        XCTAssertEqual(
            refused(.duration(10.5)),
            "--duration 10.5 is longer than the job: the job lasts 10 s (300 frames at 30 fps); leave it "
                + "out to render it all")
        XCTAssertEqual(refused(.duration(0)), "--duration expects a number of seconds above 0, got 0")
        XCTAssertEqual(
            refusal { () throws(DraftError) in try DraftSpan(rangeText: "5-2") },
            "--range 5-2 is empty: its end (2 s) must come after its start (5 s)")
        XCTAssertEqual(
            refusal { () throws(DraftError) in try DraftSpan(rangeText: "2-2") },
            "--range 2-2 is empty: its end (2 s) must come after its start (2 s)")
        for bad in [
            "", "-", "5", "2--5", "a-b", "1:75-2", "1e1-20", "+1-2", " 1-2", "inf-", "1:-2", "1:2:3:4-",
        ] {
            XCTAssertTrue(
                refusal { () throws(DraftError) in try DraftSpan(rangeText: bad) }.hasPrefix(
                    "--range expects"),
                "'\(bad)'")
        }
    }

    func testADraftKeepsTheJobsLayersAndAudio() throws {
        let job = Job(
            file: "intro.json", output: output(), layers: [],
            audio: Soundtrack(tracks: [AudioTrack(path: URL(fileURLWithPath: "/a.wav"), offset: 1)]))
        let draft = try job.drafted(Draft(size: .scale(0.5), span: .duration(2)))
        XCTAssertEqual(
            draft.audio?.tracks.map(\.offset), job.audio?.tracks.map(\.offset),
            "cut when it is encoded, from the video's first frame's time")
        XCTAssertEqual([draft.output.width, draft.output.frameCount], [960, 60])
        XCTAssertEqual(draft.file, job.file)
    }

    func testADraftWithoutAnOutputGoesBesideTheJobsOutput() {
        XCTAssertEqual(
            Draft.outputPath(besides: URL(fileURLWithPath: "/renders/intro.mp4")).path,
            "/renders/intro.draft.mp4")
        XCTAssertEqual(
            Draft.outputPath(besides: URL(fileURLWithPath: "/renders/intro")).path, "/renders/intro.draft")
    }
}
