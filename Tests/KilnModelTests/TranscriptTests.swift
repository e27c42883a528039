import Foundation
import KilnModel
import XCTest

final class TranscriptTests: XCTestCase {
    // MARK: SubRip

    func testSRTWithBOMCRLFMultiLineCuesAndTags() throws {
        let text =
            "\u{FEFF}1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i> there\r\n\r\n"
            + "2\r\n00:00:03.000 --> 00:00:05,250\r\nFirst line\r\n<font color=\"#fff\"><b>second</b></font> line\r\n"
            + "\r\n\r\n7\r\n01:02:03,004 --> 01:02:04,000\r\n{\\an8}On top: 1 < 2\r\n"
        let transcript = try parsed(text, file: "episode.srt")
        XCTAssertEqual(
            transcript.lines,
            [
                TranscriptLine(start: 1, end: 2.5, text: "Hello there"),
                TranscriptLine(start: 3, end: 5.25, text: "First line\nsecond line"),
                TranscriptLine(start: 3723.004, end: 3724, text: "On top: 1 < 2"),
            ])
    }

    func testSRTWithoutTrailingNewlineAndWithLoneCRs() throws {
        let transcript = try parsed(
            "1\r00:00:00,000 --> 00:00:01,000\rA\r\r2\r00:00:01,000 --> 00:00:02,000\rB")
        XCTAssertEqual(transcript.lines.map(\.text), ["A", "B"])
        XCTAssertEqual(transcript.lines.map(\.start), [0, 1])
    }

    // MARK: WebVTT

    func testWebVTTSkipsHeaderNotesStyleAndSettings() throws {
        let text = """
            WEBVTT - Kiln sample
            Kind: captions

            NOTE written by hand,
            over two lines

            STYLE
            ::cue { color: yellow }

            intro
            00:01.000 --> 00:02.000 align:start line:0
            <v Ana>Hello &amp; welcome</v>

            00:00:03.500 --> 00:00:04.000
            <c.loud>Fish</c> &lt;3 &gt; <00:00:03.750>chips&nbsp;too
            and <b>more</b>

            12:00:00.000 --> 12:00:01.000

            """
        let transcript = try parsed(text, file: "talk.vtt")
        XCTAssertEqual(
            transcript.lines,
            [
                TranscriptLine(start: 1, end: 2, text: "Hello & welcome"),
                // The timestamp tag is a word time: "chips" (after "Fish <3 > ") from 3.75 s.
                TranscriptLine(
                    start: 3.5, end: 4, text: "Fish <3 > chips\u{A0}too\nand more",
                    wordTimes: [.init(offset: 10, start: 3.75)]),
                TranscriptLine(start: 43200, end: 43201, text: ""),
            ])
    }

    func testWebVTTWithBOMAndCRLF() throws {
        let text =
            "\u{FEFF}WEBVTT\r\n\r\n1\r\n00:00.000 --> 00:01.000\r\nOne\r\ntwo\r\n\r\n2\r\n00:01.000 --> 00:02.000\r\nThree\r\n"
        let transcript = try parsed(text, file: "talk.vtt")
        XCTAssertEqual(transcript.lines.map(\.text), ["One\ntwo", "Three"])
        XCTAssertEqual(transcript.lines.map(\.end), [1, 2])
    }

    // MARK: JSON

    func testJSONObjectKeepsOtherTopLevelKeysAndOpenEnds() throws {
        let text = """
            {"$schema": "https://example.com/transcript.json", "id": "demo", "language": "eng",
             "wordCount": 4,
             "segments": [{"start": 0.5, "text": "Good morning."}, {"start": 2, "text": "Two <i>raw</i> words"}]}
            """
        let transcript = try parsed(text, file: "talk.json")
        XCTAssertEqual(
            transcript.lines,
            [
                TranscriptLine(start: 0.5, text: "Good morning."),
                TranscriptLine(start: 2, text: "Two <i>raw</i> words"),
            ])
    }

    func testJSONBareArrayAndEqualStarts() throws {
        let transcript = try parsed(
            #"[{"text": "a", "start": 1}, {"start": 1, "text": "b"}]"#, file: "t.json")
        XCTAssertEqual(transcript.lines.map(\.text), ["a", "b"])
        XCTAssertEqual(transcript.current(at: 1), 1, "of equal starts, the later line is current")
    }

    func testSeedTranscriptLoads() throws {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("../shared/seeds/003_6d81c41e3f81f8fb.txt")
            .standardizedFileURL
        guard FileManager.default.fileExists(atPath: seed.path) else {
            throw XCTSkip("the seed transcript is not at \(seed.path)")
        }
        let transcript = try TranscriptParser.load(file: seed.path)
        XCTAssertGreaterThan(transcript.lines.count, 100)
        XCTAssertEqual(transcript.lines.first?.start, 7.0)
        XCTAssertEqual(transcript.lines.first?.text, "Hi!")
        XCTAssertTrue(transcript.lines.allSatisfy { $0.end == nil && !$0.text.isEmpty })
        XCTAssertNil(transcript.current(at: 7 - 1e-9))
        XCTAssertEqual(transcript.current(at: 7), 0)
        XCTAssertEqual(transcript.current(at: 8), 1)
        let last = transcript.lines.count - 1
        XCTAssertEqual(transcript.current(at: transcript.lines[last].start + 3600), last)
    }

    // MARK: Format detection

    func testFormatComesFromTheExtensionElseTheContent() throws {
        let srt = "1\n00:00:00,000 --> 00:00:01,000\nA\n"
        XCTAssertEqual(TranscriptFormat.detect(file: "a.SRT", bytes: []), .srt)
        XCTAssertEqual(TranscriptFormat.detect(file: "a.vtt", bytes: []), .webVTT)
        XCTAssertEqual(TranscriptFormat.detect(file: "dir.json/a.txt", bytes: Array(srt.utf8)), .srt)
        XCTAssertEqual(
            TranscriptFormat.detect(file: "seed.txt", bytes: Array(" \n {\"segments\": []}".utf8)), .json)
        XCTAssertEqual(TranscriptFormat.detect(file: "seed.txt", bytes: Array("\u{FEFF}[]".utf8)), .json)
        XCTAssertEqual(TranscriptFormat.detect(file: "captions.TXT", bytes: Array("WEBVTT\n".utf8)), .webVTT)
        // Content decides only for .txt: a configuration file shaped like SubRip is not a transcript.
        XCTAssertNil(TranscriptFormat.detect(file: "captions", bytes: Array("WEBVTT\n".utf8)))
        XCTAssertNil(TranscriptFormat.detect(file: "app.conf", bytes: Array(srt.utf8)))
        XCTAssertNil(TranscriptFormat.detect(file: "notes.txt", bytes: Array("Dear diary".utf8)))
        XCTAssertEqual(try parsed(#"{"segments": []}"#, file: "empty.txt").lines, [])
        XCTAssertEqual(try parsed(srt, file: "t.json", format: .srt).lines.count, 1)
    }

    // MARK: Current line

    func testCurrentLineAtAndAroundOpenEndedBoundaries() {
        let transcript = Transcript(lines: [
            TranscriptLine(start: 0, text: "a"), TranscriptLine(start: 2, text: "b"),
            TranscriptLine(start: 5, text: "c"),
        ])
        let expectations: [(Double, Int?)] = [
            (-1e-9, nil), (0, 0), (1e-9, 0), (2 - 1e-9, 0), (2, 1), (2 + 1e-9, 1), (5 - 1e-9, 1), (5, 2),
            (5 + 1e-9, 2), (1e9, 2), (-.infinity, nil), (.nan, nil),
        ]
        for (time, expected) in expectations {
            XCTAssertEqual(transcript.current(at: time), expected, "at \(time)")
        }
        XCTAssertNil(Transcript(lines: []).current(at: 0))
    }

    func testOpenEndedLastLineEndsWithTheVideo() {
        let transcript = Transcript(lines: [
            TranscriptLine(start: 1, text: "a"), TranscriptLine(start: 4, text: "b"),
        ])
        XCTAssertEqual(transcript.end(ofLine: 0, videoDuration: 10), 4)
        XCTAssertEqual(transcript.end(ofLine: 1, videoDuration: 10), 10)
        XCTAssertEqual(transcript.end(ofLine: 1, videoDuration: 3), 4, "never before the line's start")
        XCTAssertEqual(transcript.current(at: 10 - 1e-9), 1)
    }

    func testGapsBetweenSubRipCues() throws {
        let transcript = try parsed(
            "1\n00:00:01,000 --> 00:00:02,500\nA\n\n2\n00:00:03,000 --> 00:00:05,000\nB\n\n"
                + "3\n00:00:05,000 --> 00:00:06,000\nC\n")
        let expectations: [(Double, Int?)] = [
            (1 - 1e-9, nil), (1, 0), (2.5 - 1e-9, 0), (2.5, nil), (2.75, nil), (3 - 1e-9, nil), (3, 1),
            (5 - 1e-9, 1), (5, 2), (6 - 1e-9, 2), (6, nil), (100, nil),
        ]
        for (time, expected) in expectations {
            XCTAssertEqual(transcript.current(at: time), expected, "at \(time)")
        }
        XCTAssertEqual(transcript.end(ofLine: 0, videoDuration: 100), 2.5)
    }

    func testOverlappingCuesFallBackToTheOneStillShowing() {
        let transcript = Transcript(lines: [
            TranscriptLine(start: 0, end: 10, text: "long"), TranscriptLine(start: 2, end: 4, text: "short"),
            TranscriptLine(start: 12, end: 13, text: "late"),
        ])
        XCTAssertEqual(transcript.current(at: 3), 1)
        XCTAssertEqual(transcript.current(at: 4), 0)
        XCTAssertNil(transcript.current(at: 10))
        XCTAssertNil(transcript.current(at: 12 - 1e-9))
        XCTAssertEqual(transcript.current(at: 12), 2)
    }

    func testInitializerSortsStablyByStart() {
        let transcript = Transcript(lines: [
            TranscriptLine(start: 3, text: "c"), TranscriptLine(start: 1, text: "a"),
            TranscriptLine(start: 3, text: "d"), TranscriptLine(start: 2, text: "b"),
        ])
        XCTAssertEqual(transcript.lines.map(\.text), ["a", "b", "c", "d"])
        XCTAssertEqual(transcript.current(at: 3), 3)
    }

    // MARK: Malformed SubRip

    func testSRTMalformedTimingLine() {
        let error = failure(
            "1\n00:00:00,000 --> 00:00:01,000\nA\n\n2\n00:00:01 --> x\nB\n", file: "episode.srt")
        XCTAssertEqual(
            error?.description,
            #"episode.srt:6: expected a timing line "00:00:01,000 --> 00:00:04,000", got a line of 14 characters"#
        )
    }

    func testSRTTimingLineOutOfRange() {
        assertFailure(
            "\r\n1\r\n00:60:00,000 --> 01:00:00,000\r\nA\r\n", file: "a.srt", line: 3,
            message:
                #"expected a timing line "00:00:01,000 --> 00:00:04,000", got a line of 29 characters"#
        )
    }

    func testSRTMissingText() {
        assertFailure(
            "1\n00:00:00,000 --> 00:00:01,000\n\n2\n00:00:01,000 --> 00:00:02,000\nB\n", file: "a.srt",
            line: 2,
            message: "expected the cue's text after its timing line, got a blank line")
        assertFailure(
            "1\n00:00:00,000 --> 00:00:01,000\nA\n\n2\n00:00:01,000 --> 00:00:02,000\n", file: "a.srt",
            line: 6,
            message: "expected the cue's text after its timing line, got the end of the file")
        assertFailure(
            "1\n00:00:00,000 --> 00:00:01,000\nA\n\n2", file: "a.srt", line: 5,
            message: #"expected a timing line "00:00:01,000 --> 00:00:04,000" after cue number 2, "#
                + "got the end of the file")
    }

    func testSRTCueNumbersMustIncrease() {
        assertFailure(
            "4\n00:00:00,000 --> 00:00:01,000\nA\n\n4\n00:00:01,000 --> 00:00:02,000\nB\n", file: "a.srt",
            line: 5,
            message: "expected a cue number greater than 4, got 4")
        assertFailure(
            "1\n00:00:00,000 --> 00:00:01,000\nA\n\nB\n", file: "a.srt", line: 5,
            message: #"expected a cue number, got a line of 1 character"#)
    }

    func testSRTEndMustFollowStartAndCuesBeInOrder() {
        assertFailure(
            "1\n00:00:02,000 --> 00:00:02,000\nA\n", file: "a.srt", line: 2,
            message: "expected the cue to end after its start 00:00:02,000, got the end 00:00:02,000")
        assertFailure(
            "1\n00:00:05,000 --> 00:00:06,000\nA\n\n2\n00:00:04,000 --> 00:00:07,000\nB\n", file: "a.srt",
            line: 6,
            message:
                "expected cues in order of their start, got 00:00:04,000 after a cue starting at 00:00:05,000"
        )
    }

    func testSRTMissingBlankLineBetweenCues() {
        assertFailure(
            "1\n00:00:00,000 --> 00:00:01,000\nA\n2\n00:00:01,000 --> 00:00:02,000\nB\n", file: "a.srt",
            line: 5,
            message: "expected a blank line and a cue number before this timing line")
    }

    func testSRTInvalidUTF8NamesTheLine() {
        let bytes = Array("1\n00:00:00,000 --> 00:00:01,000\n".utf8) + [0x41, 0xC3, 0x28, 0x0A]
        XCTAssertThrowsError(try TranscriptParser.parse(bytes, file: "a.srt")) { error in
            let error = error as? TranscriptError
            XCTAssertEqual(error?.line, 3)
            XCTAssertEqual(error?.message, "expected UTF-8 text, got a byte sequence that is not UTF-8")
        }
    }

    func testSRTTextLongerThanTheLimit() {
        let long = String(repeating: "é", count: TranscriptParser.maximumTextLength + 1)
        assertFailure(
            "1\n00:00:00,000 --> 00:00:01,000\n\(long)\n", file: "a.srt", line: 3,
            message: "expected a text of at most 10000 characters, got 10001")
        let longest = String(repeating: "é", count: TranscriptParser.maximumTextLength)
        XCTAssertEqual(
            try parsed("1\n00:00:00,000 --> 00:00:01,000\n\(longest)\n").lines.first?.text.count, 10_000)
    }

    /// WebVTT word times: each timestamp tag gives the offset in the plain text of the first
    /// character after it; tags before a word, inside markup, on a second line and a tag with
    /// nothing after it (dropped) each land where the word is.
    func testWebVTTWordTimesPointAtTheWordsAfterThem() throws {
        let text = """
            WEBVTT

            00:01.000 --> 00:04.000
            Never <00:01.500><b>gonna</b> <00:00:02.000>give
            <00:02.500>you <00:03.000>&amp; up<00:03.900>

            """
        let line = try XCTUnwrap(try parsed(text, file: "song.vtt").lines.first)
        XCTAssertEqual(line.text, "Never gonna give\nyou & up")
        let utf8 = Array(line.text.utf8)
        let words = line.wordTimes.map { time in
            (
                String(decoding: utf8[time.offset...].prefix { $0 != 0x20 && $0 != 0x0A }, as: UTF8.self),
                time.start
            )
        }
        XCTAssertEqual(words.map(\.0), ["gonna", "give", "you", "&"])
        XCTAssertEqual(words.map(\.1), [1.5, 2, 2.5, 3])
    }

    func testWebVTTWordTimesOutsideTheCueOrOutOfOrderNameTheirLine() {
        assertFailure(
            "WEBVTT\n\n00:01.000 --> 00:02.000\nA\nb <00:02.500>c\n", file: "late.vtt", line: 5,
            message:
                "expected word times in order from the cue's start 00:01.000 to its end 00:02.000, got <00:02.500>"
        )
        assertFailure(
            "WEBVTT\n\n00:01.000 --> 00:03.000\na <00:02.000>b <00:01.500>c\n", file: "order.vtt", line: 4,
            message:
                "expected word times in order from the cue's start 00:01.000 to its end 00:03.000, got <00:01.500>"
        )
        assertFailure(
            "WEBVTT\n\n00:01.000 --> 00:03.000\n<00:00.500>a\n", file: "early.vtt", line: 4,
            message:
                "expected word times in order from the cue's start 00:01.000 to its end 00:03.000, got <00:00.500>"
        )
    }

    /// JSON segments may list their words' times; each word is found in the text after the one
    /// before it (so a repeated word is found again), and a word out of order or not in the text
    /// is an error at its path.
    func testJSONWordsGiveWordTimes() throws {
        let json = #"""
            {"segments": [{"start": 1, "text": "so so good", "words": [
              {"start": 1, "text": "so"}, {"start": 1.4, "text": "so"}, {"start": 1.9, "text": "good"}]}]}
            """#
        let line = try XCTUnwrap(try parsed(json, file: "w.json").lines.first)
        XCTAssertEqual(
            line.wordTimes,
            [.init(offset: 0, start: 1), .init(offset: 3, start: 1.4), .init(offset: 6, start: 1.9)])
        assertFailure(
            #"{"segments": [{"start": 1, "text": "a b", "words": [{"start": 2, "text": "b"}, {"start": 1.5, "text": "a"}]}]}"#,
            file: "w.json", line: 1, column: 90,
            message:
                "segments[0].words[1].start: expected a number of seconds from the segment's start (or the word before) on, 2 or later"
        )
        assertFailure(
            #"{"segments": [{"start": 1, "text": "a b", "words": [{"start": 2, "text": "c"}]}]}"#,
            file: "w.json", line: 1, column: 74,
            message:
                "segments[0].words[0].text: expected the word's text in the segment's text after the words before it"
        )
    }

    // MARK: Malformed WebVTT

    func testWebVTTMissingHeader() {
        assertFailure(
            "00:00.000 --> 00:01.000\nA\n", file: "a.vtt", line: 1,
            message: #"expected "WEBVTT" on the first line, got a line of 23 characters"#)
        assertFailure(
            "WEBVTTX\n", file: "a.vtt", line: 1,
            message: #"expected "WEBVTT" on the first line, got a line of 7 characters"#)
        assertFailure(
            "", file: "a.vtt", line: 1,
            message: #"expected "WEBVTT" on the first line, got the end of the file"#)
    }

    func testWebVTTMalformedTimings() {
        let expected = #"expected a timing line "00:00:01.000 --> 00:00:04.000" (hours optional), got "#
        assertFailure(
            "WEBVTT\n\n00:00:01,000 --> 00:00:02,000\nA\n", file: "a.vtt", line: 3,
            message: expected + "a line of 29 characters")
        assertFailure(
            "WEBVTT\r\n\r\nNOTE x\r\n\r\n0:00:01.000 --> 0:00:02.000\r\nA\r\n", file: "a.vtt", line: 5,
            message: expected + "a line of 27 characters")
        assertFailure(
            "WEBVTT\n\n00:01.000 --> 00:02.000align:start\nA\n", file: "a.vtt", line: 3,
            message: expected + "a line of 34 characters")
    }

    func testWebVTTIdentifierWithoutTiming() {
        assertFailure(
            "WEBVTT\n\nintro\nHello there\n", file: "a.vtt", line: 4,
            message:
                #"expected a timing line "00:00:01.000 --> 00:00:04.000" (hours optional) after the cue "#
                + #"identifier on line 3, got a line of 11 characters"#)
        assertFailure(
            "WEBVTT\n\nintro\n", file: "a.vtt", line: 3,
            message:
                #"expected a timing line "00:00:01.000 --> 00:00:04.000" (hours optional) after the cue "#
                + #"identifier on line 3, got the end of the file"#)
    }

    func testWebVTTCueStructure() {
        assertFailure(
            "WEBVTT\nKind: captions\n00:01.000 --> 00:02.000\nA\n", file: "a.vtt", line: 3,
            message: "expected a blank line between the header and the first cue, got a timing line")
        assertFailure(
            "WEBVTT\n\n00:01.000 --> 00:02.000\nA\n00:02.000 --> 00:03.000\nB\n", file: "a.vtt", line: 5,
            message: #"expected a blank line before this timing line; cue text cannot contain "-->""#)
        assertFailure(
            "WEBVTT\n\n00:05.000 --> 00:06.000\nA\n\n00:04.000 --> 00:07.000\nB\n", file: "a.vtt", line: 6,
            message: "expected cues in order of their start, got 00:04.000 after a cue starting at 00:05.000")
        assertFailure(
            "WEBVTT\n\n00:05.000 --> 00:04.000\nA\n", file: "a.vtt", line: 3,
            message: "expected the cue to end after its start 00:05.000, got the end 00:04.000")
    }

    // MARK: Malformed JSON

    func testJSONSyntaxErrorKeepsLineAndColumn() {
        let error = failure(
            "{\"segments\": [\n  {\"start\": 1, \"text\": \"a\"}\n  {\"start\": 2, \"text\": \"b\"}\n]}",
            file: "t.json")
        XCTAssertEqual(error?.description, "t.json:3:3: expected ',' or ']' after array element")
    }

    func testJSONSegmentValueErrorsPointAtTheValue() {
        assertFailure(
            "{\"segments\": [\n  {\"start\": 0, \"text\": \"a\"},\n  {\"start\": -1, \"text\": \"b\"}\n]}",
            file: "t.json",
            line: 3, column: 13,
            message: "segments[1].start: expected a number of seconds in 0…1000000, got -1")
        assertFailure(
            "[\n  {\"start\": \"0\", \"text\": \"a\"}\n]", file: "t.json", line: 2, column: 13,
            message: "[0].start: expected a number of seconds in 0…1000000, got a string")
        assertFailure(
            "{\"segments\": [\n  {\"start\": 0,\n   \"text\": 7}]}", file: "t.json", line: 3, column: 12,
            message: "segments[0].text: expected a string, got a number")
    }

    func testJSONSegmentKeys() {
        assertFailure(
            "{\"segments\": [\n  {\"start\": 0, \"text\": \"a\",\n   \"strat\": 1}]}", file: "t.json",
            line: 3, column: 4,
            message:
                #"segments[0].strat: unknown key 'strat'; expected only "start", "text" and "words"; did you mean 'start'?"#
        )
        assertFailure(
            "{\"segments\": [{\"start\": 0}]}", file: "t.json", line: 1, column: 15,
            message: #"segments[0]: expected a "text" string"#)
        assertFailure(
            "{\"segments\": [{\"start\": 0, \"start\": 1, \"text\": \"a\"}]}", file: "t.json", line: 1,
            column: 28,
            message: "segments[0].start: duplicate key 'start'; expected it once")
    }

    func testJSONStartsMustNotDecrease() {
        assertFailure(
            "{\"segments\": [\n {\"start\": 5, \"text\": \"a\"},\n {\"start\": 4.5, \"text\": \"b\"}]}",
            file: "t.json",
            line: 3, column: 12,
            message:
                "segments[1].start: expected segments in order of their start, got 4.5 after a segment starting at 5"
        )
    }

    func testJSONTopLevelShape() {
        assertFailure(
            "{\"id\": \"x\",\n \"segmnts\": []}", file: "t.json", line: 1, column: 1,
            message: #"expected a "segments" array in the top-level object"#)
        assertFailure(
            "{\"segments\": {}}", file: "t.json", line: 1, column: 14,
            message: "segments: expected an array of segments, got an object")
        assertFailure(
            "\"hello\"", file: "t.json", line: 1, column: 1,
            message: #"expected an object with a "segments" array, or an array of segments, got a string"#)
        assertFailure(
            "[1]", file: "t.json", line: 1, column: 2,
            message: #"[0]: expected a segment {"start": seconds, "text": "…"}, got a number"#)
    }

    // MARK: Limits and files

    func testTooManySegments() {
        let segment = #"{"start": 1, "text": "a"}"#
        let text =
            "[\n"
            + Array(repeating: segment, count: TranscriptParser.maximumLineCount + 1).joined(separator: ",")
            + "]"
        assertFailure(
            text, file: "t.json", line: 1, column: 1, message: "expected at most 100000 segments, got more")
    }

    func testTooManyCues() {
        var text = "WEBVTT\n"
        for index in 0...TranscriptParser.maximumLineCount {
            text += "\n\(index)\n00:00.000 --> 00:01.000\nA\n"
        }
        assertFailure(
            text, file: "a.vtt", line: 2 + 4 * TranscriptParser.maximumLineCount + 1,
            message: "expected at most 100000 cues, got more")
    }

    func testTooLargeAndUnknownInputs() {
        let large = [UInt8](repeating: 0x20, count: TranscriptParser.maximumInputSize + 1)
        XCTAssertThrowsError(try TranscriptParser.parse(large, file: "big.srt")) { error in
            XCTAssertEqual(
                (error as? TranscriptError)?.description,
                "big.srt: expected at most 67108864 bytes (64 MiB), got a file of 67108865 bytes")
        }
        let unknown = failure("Dear diary", file: "notes.txt")
        XCTAssertNil(unknown?.line)
        XCTAssertTrue(
            unknown?.message.hasPrefix("cannot tell the transcript format; expected a .json, .srt") == true)
        XCTAssertThrowsError(try TranscriptParser.load(file: "/nonexistent/talk.srt")) { error in
            XCTAssertEqual((error as? TranscriptError)?.description, "/nonexistent/talk.srt: no such file")
        }
    }

    // MARK: Helpers

    private func parsed(
        _ text: String, file: String = "t.srt", format: TranscriptFormat? = nil
    ) throws -> Transcript {
        try TranscriptParser.parse(Array(text.utf8), file: file, format: format)
    }

    private func failure(
        _ text: String, file: String, sourceFile: StaticString = #filePath, sourceLine: UInt = #line
    ) -> TranscriptError? {
        do {
            _ = try TranscriptParser.parse(Array(text.utf8), file: file)
            XCTFail("expected a transcript error", file: sourceFile, line: sourceLine)
            return nil
        } catch {
            return error
        }
    }

    /// Checks the line (and column), that the message says what was expected, and its wording.
    private func assertFailure(
        _ text: String, file: String, line: Int, column: Int? = nil, message: String,
        sourceFile: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        guard let error = failure(text, file: file, sourceFile: sourceFile, sourceLine: sourceLine) else {
            return
        }
        XCTAssertEqual(error.file, file, file: sourceFile, line: sourceLine)
        XCTAssertEqual(error.line, line, "line", file: sourceFile, line: sourceLine)
        XCTAssertEqual(error.column, column, "column", file: sourceFile, line: sourceLine)
        XCTAssertTrue(error.message.contains("expected"), error.message, file: sourceFile, line: sourceLine)
        XCTAssertEqual(error.message, message, file: sourceFile, line: sourceLine)
    }
}
