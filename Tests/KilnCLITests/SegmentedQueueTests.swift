import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

final class SegmentedQueueTests: QueueTestCase {
    /// `--segment-seconds` splits by length; `--segments` with it is a usage error.
    func testEnqueueSplitsBySegmentSeconds() throws {
        let file = try writeJob("ninety", frames: 90, size: (16, 16))
        XCTAssertEqual(try kiln(["enqueue", file, "--segments", "2", "--segment-seconds", "1"]).status, 64)
        XCTAssertEqual(try kiln(["enqueue", file, "--segment-seconds", "1"]).status, 0)
        let rows = try status()
        XCTAssertEqual(rows.count, 4, "the job and three 1 s segments")
        XCTAssertEqual(
            rows.dropFirst().compactMap { $0["frames"] as? [Int] }, [[0, 30], [30, 60], [60, 90]])
    }

    func testThreeWorkersOneKilledShareASplitJob() throws {
        try SplitJobScenario.run(self, checkDatabase: true)
    }

    /// A split job with sound gets one more task, its soundtrack, encoded by any worker while
    /// the segments render; the assembly copies it in.
    func testASplitJobWithSoundEncodesItsSoundtrackAsATask() throws {
        _ = try tone(seconds: 5)
        let file = try write(
            "voiced.json",
            """
            {"kiln": 1, "output": {"path": "out/voiced.mp4", "width": 96, "height": 64, "fps": 25, "duration": 3,
                                   "preset": "ultrafast"},
             "layers": [{"type": "solid", "color": "#336699"}], "audio": {"path": "tone.flac"}}
            """)
        XCTAssertEqual(try kiln(["enqueue", file, "--segments", "3"]).status, 0)
        let rows = try status()
        XCTAssertEqual(rows.count, 5, "the job, three segments and the soundtrack")
        XCTAssertEqual(rows.last?["frames"] as? NSNull, NSNull())
        let shown = try kiln(["status"]).stdout
        XCTAssertTrue(shown.contains("1 soundtrack"), shown)
        XCTAssertTrue(shown.contains("waiting"), shown)
        let worker = try kiln(["worker", "--drain"])
        XCTAssertEqual(worker.status, 0, worker.stderr)
        XCTAssertTrue(worker.stderr.contains("the soundtrack of job 1"), worker.stderr)
        XCTAssertEqual(Set(try states()), ["completed"])
        let output = outputs.appendingPathComponent("voiced.mp4").path
        assertKilnVideo(try VideoDecodeBack.decode(path: output), width: 96, height: 64, frames: 75)
        let reader = try AudioFileReader(path: output)
        XCTAssertEqual(Double(try reader.readAll().left.count), 3 * 48_000, accuracy: 1024)
        XCTAssertTrue(try kiln(["logs", "1"]).stdout.contains("the soundtrack completed"))
        try assertQueueSound(frames: ["voiced": 75])
    }
}
