import Foundation
import KilnTestSupport
import XCTest

/// The rough edges a new user met in the first hour (issue 40): what `render`, `preview`,
/// `sheet`, `validate`, `docs` and `status` say, and where they write.
final class FirstHourTests: QueueTestCase {
    private func smallJob(frames: Int = 6, layers: String = ##"[{"type": "solid", "color": "#123456"}]"##)
        throws
        -> String
    {
        try write(
            "small.json",
            #"{"kiln": 1, "output": {"path": "renders/small.mp4", "width": 32, "height": 32, "fps": 10, "duration": {"frames": \#(frames)}, "preset": "ultrafast"}, "layers": \#(layers)}"#
        )
    }

    /// "wrote … (180 frames, 12.9 s)" read as the video's length: the video's own length and
    /// frames come first (with the still frames reused, if any), then the render's time and its
    /// pace.
    func testRenderSaysTheVideosLengthThenTheRenderTime() throws {
        let result = try kiln(["render", try smallJob(frames: 6)])
        XCTAssertEqual(result.status, 0, result.stderr)
        let line = try XCTUnwrap(result.stderr.split(separator: "\n").last.map(String.init))
        XCTAssertNotNil(
            line.firstMatch(of: #/wrote .*small\.mp4 \(0\.6 s, 6 frames(; \d+ rendered, [^)]+)?\) in /#),
            line)
        XCTAssertNotNil(line.firstMatch(of: #/ in \d+\.\d s, \d+\.\d\d× real time$/#), line)
    }

    /// `validate` counts in the singular too ("1 layers").
    func testValidateCountsOneLayerAsOne() throws {
        let result = try kiln(["validate", try smallJob(frames: 1)])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("1 frame, 1 layer)"), result.stdout)
    }

    /// `preview` and `sheet` without -o write a PNG beside the job's output named for what it
    /// shows, and say where; -n leaves an existing output alone, for render too.
    func testStillsHaveDefaultNamesAndNoClobberKeepsOutputs() throws {
        let job = try smallJob()
        let preview = try kiln(["preview", job, "--frame", "3"])
        XCTAssertEqual(preview.status, 0, preview.stderr)
        let still = directory.appendingPathComponent("renders/small.frame-3.png")
        XCTAssertTrue(FileManager.default.fileExists(atPath: still.path), preview.stderr)
        XCTAssertTrue(
            preview.stderr.contains("wrote \(still.path) (frame 3 at 0.3 s, 32×32)"), preview.stderr)
        let sheet = try kiln(["sheet", job, "--count", "2"])
        XCTAssertEqual(sheet.status, 0, sheet.stderr)
        let sheetFile = directory.appendingPathComponent("renders/small.sheet.png")
        XCTAssertTrue(FileManager.default.fileExists(atPath: sheetFile.path), sheet.stderr)

        let render = try kiln(["render", job])
        XCTAssertEqual(render.status, 0, render.stderr)
        let video = directory.appendingPathComponent("renders/small.mp4")
        for (args, file) in [
            (["render", job, "-n"], video), (["preview", job, "--frame", "3", "--no-clobber"], still),
            (["sheet", job, "--count", "2", "-n"], sheetFile),
        ] {
            try Data("keep".utf8).write(to: file)
            let kept = try kiln(args)
            XCTAssertEqual(kept.status, 0, kept.stderr)
            XCTAssertTrue(kept.stderr.contains("exists; left as it is (--no-clobber)"), kept.stderr)
            XCTAssertEqual(try Data(contentsOf: file), Data("keep".utf8), "\(args[0]) -n replaced it")
        }
        // Without -n the same command replaces it.
        XCTAssertEqual(try kiln(["preview", job, "--frame", "3"]).status, 0)
        XCTAssertNotEqual(try Data(contentsOf: still), Data("keep".utf8))
    }

    /// A ripple trigger after the job's end is listed with the job's other mistakes (it was
    /// reported only once they were fixed), and an origin so far outside the frame that the wave
    /// never reaches it is refused.
    func testRippleTriggerProblemsAreListedWithTheOthers() throws {
        let job = try write(
            "ripple.json",
            ##"""
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 10, "duration": 1, "crf": 99},
             "layers": [{"type": "solid", "color": "#fff", "effects": [{"ripple": {"speed": 100, "duration": 1,
               "triggers": [{"at": 5, "origin": [32, 32]}]}}]}]}
            """##)
        let both = try kiln(["validate", job])
        XCTAssertEqual(both.status, 65)
        XCTAssertTrue(both.stderr.contains("output.crf"), both.stderr)
        XCTAssertTrue(
            both.stderr.contains("trigger at 5 s is after the end of the timeline (1 s)"), both.stderr)

        let far = try write(
            "far.json",
            ##"""
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 10, "duration": 1},
             "layers": [{"type": "solid", "color": "#fff", "effects": [{"ripple": {"speed": 100, "duration": 1,
               "triggers": [{"at": 0, "origin": [5000, 32]}, {"at": 0, "origin": [400, 32]}]}}]}]}
            """##)
        let refused = try kiln(["validate", far])
        XCTAssertEqual(refused.status, 65)
        XCTAssertTrue(refused.stderr.contains("triggers[0].origin"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("so this ripple never shows"), refused.stderr)
        // 336 px out is within the 100 px reach and four frames' width: a layer moved into view shows it.
        XCTAssertFalse(refused.stderr.contains("triggers[1]"), refused.stderr)
    }

    /// Outside the repository `docs --check` says the document is missing, not that the schema
    /// "is stale".
    func testDocsCheckOutsideTheRepositorySaysWhatIsMissing() throws {
        let result = try KilnProcess.run(["docs", "--check"], cwd: directory)
        XCTAssertEqual(result.status, 66, result.stderr)
        XCTAssertTrue(result.stderr.contains("docs/job-format.md: no such file"), result.stderr)
        XCTAssertFalse(result.stderr.contains("stale"), result.stderr)
    }

    /// `status`: columns stay aligned whatever the names' lengths, a very long name is cut in
    /// the middle, and `--json` writes paths with plain slashes.
    func testStatusColumnsHoldLongNamesAndJSONKeepsSlashes() throws {
        let long = "a-job-whose-name-goes-on-and-on-well-past-the-column-" + String(repeating: "x", count: 40)
        let first = try write(
            "\(long).json",
            #"{"kiln": 1, "output": {"path": "out/a.mp4", "width": 32, "height": 32, "fps": 10, "duration": 0.2}, "layers": []}"#
        )
        let second = try write(
            "b.json",
            #"{"kiln": 1, "output": {"path": "out/b.mp4", "width": 32, "height": 32, "fps": 10, "duration": 0.2}, "layers": []}"#
        )
        XCTAssertEqual(try kiln(["enqueue", first, second]).status, 0)
        let listing = try kiln(["status"])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        let lines = listing.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, listing.stdout)
        let outputColumn = lines.map {
            $0.range(of: "OUTPUT")?.lowerBound ?? $0.range(of: self.directory.path)?.lowerBound
        }
        let offsets = zip(lines, outputColumn).map { line, index in
            index.map { line.distance(from: line.startIndex, to: $0) }
        }
        XCTAssertEqual(Set(offsets.compactMap { $0 }).count, 1, listing.stdout)
        XCTAssertTrue(lines[1].contains("…"), lines[1])
        let json = try kiln(["status", "--json"])
        XCTAssertFalse(json.stdout.contains(#"\/"#), json.stdout)
    }

    /// Drafts can be queued: `enqueue --scale --range` stores the draft, a worker renders it
    /// beside the job's output as NAME.draft.mp4, and a range past a job's end is a usage error.
    func testDraftsCanBeQueued() throws {
        let job = try write(
            "wide.json",
            ##"{"kiln": 1, "output": {"path": "renders/wide.mp4", "width": 64, "height": 64, "fps": 10, "duration": 1, "preset": "ultrafast"}, "layers": [{"type": "solid", "color": "#123456"}]}"##
        )
        let past = try kiln(["enqueue", job, "--range", "2-3"])
        XCTAssertEqual(past.status, 64, past.stderr)
        XCTAssertTrue(past.stderr.contains("wide.json"), past.stderr)
        let queued = try kiln(["enqueue", job, "--scale", "0.5", "--range", "0.2-0.5"])
        XCTAssertEqual(queued.status, 0, queued.stderr)
        let row = try XCTUnwrap(try status().first)
        XCTAssertEqual(row["draft"] as? String, "scale=0.5 range=0.2-0.5")
        let draftPath = directory.appendingPathComponent("renders/wide.draft.mp4").path
        XCTAssertEqual(row["output"] as? String, draftPath)
        XCTAssertEqual(try kiln(["worker", "--drain"]).status, 0)
        XCTAssertEqual(try states(), ["completed"])
        let info = try VideoDecodeBack.decode(path: draftPath)
        XCTAssertEqual([info.width, info.height, info.decodedFrameCount], [32, 32, 3])
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("renders/wide.mp4").path))
    }
}
