import Foundation
import KilnTestSupport
import XCTest

/// `render --cache DIR` and `kiln cache`: a repeated segmented render takes its pieces from the
/// cache and writes the same bytes; the cache is counted, pruned and cleared.
final class CacheCLITests: TemporaryDirectoryTestCase {
    func testARepeatedRenderReusesTheCacheAndTheCacheCommandsReportIt() throws {
        let file = try write(
            "cached.json",
            """
            {"kiln": 1, "output": {"width": 128, "height": 72, "fps": 25, "duration": 2, "preset": "veryfast"},
             "layers": [{"type": "solid", "color": {"keyframes": [{"t": 0, "v": "#102030"}, {"t": 2, "v": "#f0d0a0"}]}}]}
            """)
        let cache = directory.appendingPathComponent("chunks").path
        for name in ["a.mp4", "b.mp4"] {
            let run = try KilnProcess.run([
                "render", file, "-o", directory.appendingPathComponent(name).path, "--segments", "2",
                "--cache",
                cache,
            ])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        XCTAssertEqual(
            try Data(contentsOf: directory.appendingPathComponent("a.mp4")),
            try Data(contentsOf: directory.appendingPathComponent("b.mp4")))
        let stats = try KilnProcess.run(["cache", "stats", "--cache", cache])
        XCTAssertEqual(stats.status, 0, stats.stderr)
        XCTAssertTrue(stats.stdout.contains(": 2 entries,"), stats.stdout)
        let prune = try KilnProcess.run(["cache", "prune", "--cache", cache, "--max-megabytes", "0"])
        XCTAssertEqual(prune.status, 0, prune.stderr)
        XCTAssertTrue(prune.stderr.contains("removed 2 cache entries"), prune.stderr)
        let clear = try KilnProcess.run(["cache", "clear", "--cache", cache])
        XCTAssertTrue(clear.stderr.contains("removed 0 cache entries"), clear.stderr)
    }
}
