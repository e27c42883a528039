import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnTestSupport
import KilnText
import XCTest

@testable import KilnScene

/// The captions layer: word highlight on the frame of each word time, balanced lines, the safe
/// area at every aspect, parse errors, thread independence and drafts.
final class CaptionsLayerTests: ScratchDirectoryTestCase {
    /// Word times on frame boundaries (0.7 s is frame 21 at 30 fps) and between them (1.21 s:
    /// the first frame at or after it is 37).
    static let vtt = """
        WEBVTT

        00:00.300 --> 00:02.600
        Kiln <00:00.700>renders <00:01.210>captions <00:01.800>from <00:02.115>WebVTT.

        00:02.600 --> 00:04.000
        Each <00:02.950>word <00:03.333>lights up

        """

    func captionsJob(
        width: Int = 480, height: Int = 270, vtt: String = CaptionsLayerTests.vtt, size: Double = 24,
        fade: Double = 0, highlight: String = ##"{"color": "#111111", "background": "#ffd60a"}"##,
        extra: String = ""
    ) throws -> Job {
        let file = try write("words.vtt", vtt)
        return try Fixture.job(
            """
            {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 30, "duration": 5},
             "layers": [{"type": "solid", "color": "#203040"},
                        {"type": "captions", "path": "\(file)", "size": \(size), "fade": \(fade),
                         "highlight": \(highlight)\(extra)}]}
            """)
    }

    func captions(_ job: Job) throws -> CaptionsLayer {
        try XCTUnwrap(job.layers.lazy.compactMap { $0.content as? CaptionsLayer }.first)
    }

    /// Columns holding the highlight pill's yellow.
    func yellowColumns(_ frame: RGBA8Frame) -> Range<Int>? {
        var columns: [Int] = []
        for x in 0..<frame.width {
            for y in 0..<frame.height {
                let p = frame.pixel(x: x, y: y)
                if p.x > 200, p.y > 170, p.z < 80 {
                    columns.append(x)
                    break
                }
            }
        }
        guard let first = columns.first, let last = columns.last else { return nil }
        return first..<(last + 1)
    }

    /// Issue 39: the highlight moves on exactly the frame of each word's time. Every frame of
    /// both cues is rendered: the picture changes from one frame to the next exactly when a
    /// word time (or a cue's start) lies between them, and the pill stands under the word the
    /// layer says is current.
    func testWordHighlightChangesOnTheFrameOfEachWordStart() throws {
        let job = try captionsJob()
        let layer = try captions(job)
        XCTAssertEqual(layer.cues[0].words.map(\.start), [0.3, 0.7, 1.21, 1.8, 2.115])
        // The second cue's last two words share 3.333…4.0 by their characters.
        XCTAssertEqual(layer.cues[1].words.map(\.start).prefix(3), [2.6, 2.95, 3.333])
        let changes = (layer.cues[0].words + layer.cues[1].words).map(\.start)
        var previous = Fixture.render(job, at: job.output.time(ofFrame: 8))
        var previousPill = yellowColumns(previous)
        for n in 9...119 {
            let (before, now) = (job.output.time(ofFrame: n - 1), job.output.time(ofFrame: n))
            let frame = Fixture.render(job, at: now)
            let pill = yellowColumns(frame)
            let expected = changes.contains { before < $0 && $0 <= now }
            XCTAssertEqual(frame.byteArray != previous.byteArray, expected, "frame \(n) (t = \(now))")
            XCTAssertEqual(pill != previousPill, expected, "the pill moves at frame \(n) (t = \(now))")
            if let cue = layer.cue(at: now), let word = layer.cues[cue].word(at: now) {
                let box = layer.cues[cue].words[word].box
                let centre = layer.cues[cue].origin.x + box.x + box.width / 2
                let pillCentre = Double((pill?.lowerBound ?? 0) + (pill?.upperBound ?? 0)) / 2
                XCTAssertEqual(pillCentre, centre, accuracy: 2, "frame \(n)")
            }
            (previous, previousPill) = (frame, pill)
        }
    }

    /// Without word times a cue's words share it by their characters: each starts when the
    /// characters before it have been said at an even pace.
    func testWordsWithoutTimesShareTheCueByCharacters() throws {
        let line = TranscriptLine(start: 1, end: 3, text: "ab cdef gh")
        let times = CaptionsLayer.Style.startTimes(
            of: [(0, 2), (3, 4), (8, 2)], line: line, end: 3)
        XCTAssertEqual(times, [1.0, 1.5, 2.5])
        // A word time restarts the spread from itself.
        let timed = TranscriptLine(
            start: 1, end: 3, text: "ab cdef gh", wordTimes: [.init(offset: 3, start: 2)])
        XCTAssertEqual(
            CaptionsLayer.Style.startTimes(of: [(0, 2), (3, 4), (8, 2)], line: timed, end: 3),
            [1.0, 2.0, 2.0 + 4.0 / 6.0])
    }

    /// A SubRip file has no word times: the first word starts with its cue, the others follow
    /// through it in order, and the cue's written line breaks are laid out again.
    func testSubRipCuesSpreadTheirWordsOverTheCue() throws {
        let srt = try write("talk.srt", "1\n00:00:01,000 --> 00:00:03,000\nHello there,\nhow are you?\n")
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 640, "height": 360, "fps": 30, "duration": 4},
             "layers": [{"type": "captions", "path": "\(srt)"}]}
            """)
        let cue = try captions(job).cues[0]
        let starts = cue.words.map(\.start)
        XCTAssertEqual(starts.count, 5)
        XCTAssertEqual(starts.first, 1)
        XCTAssertEqual(starts, starts.sorted())
        XCTAssertLessThan(starts.last!, 3)
        XCTAssertEqual(cue.layout.lines.count, 1, "a short cue is one line at 640 px")
    }

    /// A cue of thousands of timed words loads in linear time: words find their glyphs and
    /// their stretches by bisection and one pass, not by a search per glyph.
    func testALongWordTimedCueLoadsQuickly() throws {
        var text = ""
        for k in 1...2_000 { text += String(format: "<00:%02d.%03d>w ", k / 1000, k % 1000) }
        let file = try write("long.vtt", "WEBVTT\n\n00:00.000 --> 00:03.000\n" + text + "\n")
        let started = Date()
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 1920, "height": 1080, "fps": 30, "duration": 3},
             "layers": [{"type": "captions", "path": "\(file)", "maxCharactersPerLine": 1000}]}
            """)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        let cue = try captions(job).cues[0]
        XCTAssertEqual(cue.words.count, 2_000)
        XCTAssertEqual(cue.words[1_233].start, 1.234, "word k (from 0) at (k + 1) ms")
    }

    /// Balanced lines differ in width less than greedy ones, in as many lines, each within the
    /// character limit.
    func testBalancedLinesAreCloserInWidthThanGreedyOnes() throws {
        let library = try FontLibrary.shared()
        let texts = [
            "The quick brown fox jumps over the lazy dog and then runs far away",
            "Captions should read as two even lines, not one long line over a word",
            "Kiln renders captions from WebVTT files with word timing cues",
        ]
        for text in texts {
            let single = try TextLayout(
                text: text, font: FontDescriptor(family: "Noto Sans", weight: 600), size: 40, library: library
            )
            func widths(balanced: Bool) throws -> [Double] {
                let starts = CaptionBreaking.lineStarts(
                    of: single, maxCharacters: 42, maxWidth: 10_000, balanced: balanced)
                let bytes = Array(text.utf8)
                let bounds = [0] + starts + [bytes.count]
                return try zip(bounds, bounds.dropFirst()).map { from, to in
                    let line = String(decoding: bytes[from..<to], as: UTF8.self)
                    XCTAssertLessThanOrEqual(line.trimmingCharacters(in: .whitespaces).count, 42, line)
                    return try TextLayout(
                        text: line, font: FontDescriptor(family: "Noto Sans", weight: 600), size: 40,
                        library: library
                    ).lines[0].width
                }
            }
            let greedy = try widths(balanced: false), balanced = try widths(balanced: true)
            XCTAssertEqual(greedy.count, 2, text)
            XCTAssertEqual(balanced.count, greedy.count, text)
            let spread = { (w: [Double]) in w.max()! - w.min()! }
            XCTAssertLessThan(spread(balanced), spread(greedy), text)
            XCTAssertLessThan(spread(balanced), 0.25 * balanced.max()!, text)
        }
    }

    /// Every line's pill stays inside the safe area at 16:9, 9:16 and 1:1, for every
    /// placement, with a long cue that takes several lines.
    func testEveryLineBoxIsInsideTheSafeAreaAtEveryAspect() throws {
        let vtt = """
            WEBVTT

            00:00.000 --> 00:02.000
            A short one.

            00:02.000 --> 00:05.000
            A much longer cue that will have to take several lines in a vertical frame, with words 日本語の字幕も 🎬

            """
        for (width, height) in [(1920, 1080), (1080, 1920), (1080, 1080)] {
            for placement in ["bottom", "top", "center"] {
                for safe in [0.05, 0.1] {
                    let job = try captionsJob(
                        width: width, height: height, vtt: vtt, size: 0,
                        extra: #", "placement": "\#(placement)", "safeArea": \#(safe)"#)
                    let layer = try captions(job)
                    let low = SIMD2(Double(width), Double(height)) * safe
                    let high = SIMD2(Double(width), Double(height)) * (1 - safe)
                    for cue in layer.cues.indices {
                        let boxes = layer.lineBoxes(ofCue: cue)
                        XCTAssertFalse(boxes.isEmpty)
                        for box in boxes {
                            let label = "\(width)×\(height) \(placement) \(safe) cue \(cue): \(box)"
                            XCTAssertTrue(all(box.min .>= low - 1e-9) && all(box.max .<= high + 1e-9), label)
                        }
                        if placement == "bottom" {
                            XCTAssertEqual(
                                boxes.last!.max.y, high.y, accuracy: 1, "sits on the safe area's bottom")
                        }
                    }
                    if width == 1080 && height == 1920 {
                        XCTAssertGreaterThanOrEqual(layer.lineBoxes(ofCue: 1).count, 3, "the long cue wraps")
                    }
                }
            }
        }
    }

    func testParseErrorsNameTheFileAndLine() throws {
        let bad = try write("bad.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\nfirst\nthen <00:03.000>late\n")
        XCTAssertThrowsError(
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": 2},
                 "layers": [{"type": "captions", "path": "\(bad)"}]}
                """)
        ) { error in
            XCTAssertTrue("\(error)".contains("bad.vtt:5: expected word times in order"), "\(error)")
        }
    }

    func testOneAndManyThreadsRenderTheSameBytes() throws {
        let job = try captionsJob(fade: 0.2, highlight: ##"{"spoken": true, "background": "#ffd60a"}"##)
        for time in [0.35, 0.8, 1.5, 2.5, 2.7, 3.9] {
            XCTAssertEqual(
                Fixture.renderYUV(job, at: time, threads: 1), Fixture.renderYUV(job, at: time, threads: 4),
                "t = \(time)")
        }
    }

    /// A draft is the full frame made smaller: the lines are laid out in the job's units.
    func testADraftIsTheFullFrameBoxFiltered() throws {
        let job = try captionsJob(width: 640, height: 360, size: 0)
        for time in [0.8, 2.7] {
            let draft = try job.drafted(Draft(size: .scale(0.5)))
            let result = DraftRenderTests.compare(
                draft: Fixture.render(draft, at: time), full: Fixture.render(job, at: time), factor: 2)
            XCTAssertLessThanOrEqual(result.mean, DraftRenderTests.meanTolerance, "t = \(time)")
            XCTAssertLessThanOrEqual(result.farOffShare, DraftRenderTests.farOffShare, "t = \(time)")
        }
    }

    /// The transcript layer still shows the text without its word-time tags.
    func testTheTranscriptLayerStillStripsWordTimes() throws {
        let transcript = try TranscriptParser.parse(Array(Self.vtt.utf8), file: "w.vtt")
        XCTAssertEqual(transcript.lines[0].text, "Kiln renders captions from WebVTT.")
        XCTAssertEqual(transcript.lines[0].wordTimes.count, 4)
    }
}
