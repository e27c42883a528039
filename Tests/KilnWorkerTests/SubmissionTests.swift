import Foundation
import KilnQueue
import KilnTestSupport
import KilnWorker
import XCTest

/// Batch files, enqueue validation and command-line times.
final class SubmissionTests: ScratchDirectoryTestCase {
    private var job: String {
        get throws {
            try write(
                "card.json",
                ##"""
                {"kiln": 1, "variables": {"title": "Hi", "color": {"type": "color", "default": "#102030"},
                                          "seconds": {"type": "number", "default": 1, "min": 0.1, "max": 10}},
                 "output": {"path": "out/{job}-{title}.mp4", "width": 64, "height": 64, "fps": 10, "duration": {"var": "seconds"}},
                 "layers": [{"type": "solid", "color": {"var": "color"}}]}
                """##)
        }
    }

    func testCSVWithQuotesAndLineBreaks() throws {
        let file = try write(
            "rows.csv",
            "title,color\n\"Hello, world\",#ff0000\n\"Two\nlines\",#00ff00\n\"say \"\"hi\"\"\",#0000ff\n")
        let rows = try BatchFile.rows(file: file)
        XCTAssertEqual(rows.map(\.values["title"]), ["Hello, world", "Two\nlines", #"say "hi""#])
        XCTAssertEqual(rows.map(\.line), [2, 3, 5])
    }

    func testMalformedBatchFilesNameTheLine() throws {
        for (name, text, expected) in [
            ("a.csv", "title,color\nx\n", "a.csv:2: expected 2 fields (as the header), got 1"),
            ("b.csv", "title\n\"open\n", "b.csv:2: a quoted field is not closed"),
            ("c.jsonl", "{\"title\": \"x\"}\n[1]\n", "c.jsonl:2: expected one JSON object per line"),
            ("d.txt", "x", "d.txt: expected a .csv or .jsonl file"),
            ("e.csv", "title\n", "e.csv: has no rows"),
        ] {
            let file = try write(name, text)
            XCTAssertThrowsError(try BatchFile.rows(file: file), name) { error in
                XCTAssertTrue("\(error)".hasSuffix(expected), "\(error)")
            }
        }
    }

    func testJSONLinesRows() throws {
        let file = try write("rows.jsonl", "{\"title\": \"A\", \"seconds\": 2}\n\n{\"title\": \"B\"}\n")
        let rows = try BatchFile.rows(file: file)
        XCTAssertEqual(rows.map(\.values), [["title": "A", "seconds": "2"], ["title": "B"]])
    }

    func testRequestsCarryVariablesAndExpandedOutputs() throws {
        var options = JobSubmission.Options()
        options.variables = ["title": "Base"]
        options.batchFile = try write("rows.csv", "title,seconds\nOne,2\nTwo,3\n")
        let requests = try JobSubmission.requests(jobFiles: [try job], options: options, now: 0)
        XCTAssertEqual(requests.map(\.variables["title"]), ["One", "Two"])
        XCTAssertEqual(
            requests.map { URL(fileURLWithPath: $0.output).lastPathComponent },
            ["card-One.mp4", "card-Two.mp4"])
        XCTAssertEqual(requests.first?.name, "card")
        XCTAssertTrue(
            requests.first?.jobJSON.contains("\"variables\"") ?? false, "the job file is snapshotted")
    }

    func testAnyBadRowRejectsTheWholeBatch() throws {
        var options = JobSubmission.Options()
        options.batchFile = try write("rows.csv", "title,seconds\nOne,2\nTwo,99\nThree,x\n")
        XCTAssertThrowsError(try JobSubmission.requests(jobFiles: [try job], options: options, now: 0)) {
            error in
            guard let failure = error as? JobSubmission.Failure else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.exitCode, 65)
            XCTAssertEqual(failure.messages.count, 2, "\(failure.messages)")
            XCTAssertTrue(failure.messages[0].contains("rows.csv:3"), failure.messages[0])
            XCTAssertTrue(failure.messages[1].contains("rows.csv:4"), failure.messages[1])
        }
    }

    func testMissingJobIs66() {
        XCTAssertThrowsError(
            try JobSubmission.requests(jobFiles: ["/nowhere/job.json"], options: .init(), now: 0)
        ) { error in
            XCTAssertEqual((error as? JobSubmission.Failure)?.exitCode, 66)
        }
    }

    func testDurationsAndTimes() {
        XCTAssertEqual(DurationText.seconds("90"), 90)
        XCTAssertEqual(DurationText.seconds("1h30m"), 5400)
        XCTAssertEqual(DurationText.seconds("7d"), 604_800)
        XCTAssertNil(DurationText.seconds("7x"))
        XCTAssertNil(DurationText.seconds("h"))
        XCTAssertEqual(DurationText.time("+10m", now: 1000), 1600)
        XCTAssertEqual(DurationText.time("2026-12-01T09:30:00Z", now: 0), 1_796_117_400)
        XCTAssertEqual(
            DurationText.time("2026-12-01 10:30", now: 0, timeZone: TimeZone(identifier: "Europe/Berlin")!),
            1_796_117_400)
        XCTAssertNil(DurationText.time("tomorrow", now: 0))
    }
}
