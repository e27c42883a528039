import Foundation
import XCTest

/// The demos as a viewer gets them: every MP4 that scripts/showcase.sh writes, rendered the same
/// way (`kiln render JOB -o OUT`), played by headless Chromium, which must find no media error,
/// the job's duration and size, and play each to its end.
final class BrowserPlaybackTests: TemporaryDirectoryTestCase {
    static let chromium = "/usr/bin/chromium"

    /// Faster than real time, so the three videos (73 s together) play in about the podcast's
    /// 51 s / 4; Chromium still decodes every frame, only showing fewer.
    static let playbackRate = 4.0

    /// What a job asks for: the facts the browser must find in its video.
    struct Expected {
        let job: String
        let width: Int
        let height: Int
        let fps: Double
        let seconds: Double

        init(job: String) throws {
            self.job = job
            let url = KilnProcess.repositoryRoot.appendingPathComponent("jobs/\(job).json")
            let root = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            let output = try XCTUnwrap(root["output"] as? [String: Any], "\(job): output")
            width = try XCTUnwrap(output["width"] as? Int, "\(job): output.width")
            height = try XCTUnwrap(output["height"] as? Int, "\(job): output.height")
            fps = try XCTUnwrap(output["fps"] as? Double, "\(job): output.fps")
            seconds = try XCTUnwrap(output["duration"] as? Double, "\(job): output.duration in seconds")
        }

        var frames: Int { Int((seconds * fps).rounded()) }
        var video: String { "\(job).mp4" }
    }

    /// What the page saw of one video.
    struct Verdict: Decodable {
        let events: [String]
        let error: String?
        let duration: Double?
        let currentTime: Double
        let width: Int
        let height: Int
        let decodedFrames: Int?
        let wallSeconds: Double
    }

    func testChromiumPlaysEveryShowcaseVideoToTheEnd() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.chromium) else {
            throw XCTSkip("\(Self.chromium) is not installed (scripts/install-deps.sh --test)")
        }
        let voice = KilnProcess.repositoryRoot.appendingPathComponent("jobs/podcast/voice.wav").path
        guard FileManager.default.fileExists(atPath: voice) else {
            throw XCTSkip("run scripts/make-podcast.py first (scripts/test.sh does)")
        }
        let expected = try ["showcase", "podcast", "symbols"].map(Expected.init(job:))
        for video in expected {
            let out = directory.appendingPathComponent(video.video).path
            let rendered = try KilnProcess.run(["render", "jobs/\(video.job).json", "-o", out])
            XCTAssertEqual(rendered.status, 0, "\(video.job): \(rendered.stderr)")
        }

        let verdicts = try play(expected.map(\.video))
        for video in expected {
            let verdict = try XCTUnwrap(verdicts[video.video], "\(video.video): no verdict")
            let name = video.video
            XCTAssertNil(verdict.error, "\(name): media error")
            XCTAssertTrue(
                verdict.events.contains("ended"), "\(name) did not play to its end: \(verdict.events)")
            let frame = 1 / video.fps
            XCTAssertEqual(
                try XCTUnwrap(verdict.duration, "\(name): no duration"), video.seconds, accuracy: frame)
            XCTAssertEqual(verdict.currentTime, video.seconds, accuracy: frame, "\(name): where it stopped")
            XCTAssertEqual([verdict.width, verdict.height], [video.width, video.height], "\(name): size")
            XCTAssertEqual(verdict.decodedFrames, video.frames, "\(name): frames decoded")
            // Played, not jumped to the end: it took most of its duration at the rate asked for.
            XCTAssertGreaterThan(verdict.wallSeconds, 0.8 * video.seconds / Self.playbackRate, "\(name)")
        }
    }

    /// Plays `videos` (in the scratch directory) at once in one headless Chromium page and
    /// returns what the page saw of each. The page reports on the console, which Chromium logs
    /// to a file, and closes its window when every video has ended or failed, which ends the
    /// browser. (Virtual time, `--virtual-time-budget`, does not move media playback on, so the
    /// page cannot simply be dumped once a budget runs out.)
    func play(_ videos: [String]) throws -> [String: Verdict] {
        let page = directory.appendingPathComponent("play.html")
        let names = String(decoding: try JSONSerialization.data(withJSONObject: videos), as: UTF8.self)
        // Long enough for a loaded machine, short enough that a stuck video fails the test.
        let patience = 120.0
        try Data(
            """
            <!doctype html>
            <meta charset="utf-8">
            <body>
            <script>
            const verdicts = {};
            let playing = 0;
            function report() {
              console.log("KILN-VERDICT " + JSON.stringify(verdicts));
              window.close();
            }
            for (const name of \(names)) {
              const video = document.createElement("video");
              const verdict = verdicts[name] = { events: [] };
              const started = performance.now();
              let open = true;
              const settle = () => {
                if (!open) return;
                open = false;
                Object.assign(verdict, {
                  error: video.error ? `${video.error.code} ${video.error.message}` : null,
                  duration: Number.isFinite(video.duration) ? video.duration : null,
                  currentTime: video.currentTime,
                  width: video.videoWidth,
                  height: video.videoHeight,
                  decodedFrames: video.getVideoPlaybackQuality().totalVideoFrames,
                  wallSeconds: (performance.now() - started) / 1000,
                });
                if (--playing === 0) report();
              };
              for (const event of ["loadedmetadata", "playing", "ended", "error"]) {
                video.addEventListener(event, () => {
                  verdict.events.push(event);
                  if (event === "ended" || event === "error") settle();
                });
              }
              playing += 1;
              video.muted = true;
              video.defaultPlaybackRate = \(Self.playbackRate);
              video.autoplay = true;
              video.src = name;
              document.body.append(video);
              setTimeout(settle, \(Int(patience * 1000)));
            }
            </script>
            """.utf8
        ).write(to: page)
        let log = directory.appendingPathComponent("chromium.log")
        let started = Date()
        let status = try KilnProcess.runWithTimeout(
            Self.chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
                "--autoplay-policy=no-user-gesture-required", "--enable-logging", "--v=0",
                "--log-file=\(log.path)", page.absoluteString,
            ], timeout: patience + 60)
        print("chromium played \(videos.joined(separator: ", ")) in \(Date().timeIntervalSince(started)) s")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        XCTAssertNotNil(status, "chromium did not finish")
        // The console line: `… "KILN-VERDICT {…}", source: file:///…/play.html (N)`.
        guard let line = text.split(separator: "\n").first(where: { $0.contains("KILN-VERDICT ") }),
            let start = line.range(of: "KILN-VERDICT ")?.upperBound,
            let end = line.range(of: "}", options: .backwards)?.upperBound
        else {
            XCTFail(
                "no verdict in Chromium's log (exit \(status.map(String.init) ?? "killed")):\n\(text.suffix(4000))"
            )
            return [:]
        }
        return try JSONDecoder().decode([String: Verdict].self, from: Data(line[start..<end].utf8))
    }
}
