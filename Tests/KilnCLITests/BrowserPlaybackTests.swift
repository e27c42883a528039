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

    /// The other formats a browser shows: a 1 s VP9 WebM (with its Opus track) plays to its end
    /// like the MP4s; the animated GIF and WebP load as images of the right size whose uncovered
    /// corner is transparent and whose centre has the job's colour. HEVC is rendered too and its
    /// verdict printed, not asserted: Debian's Chromium has no HEVC decoder (it plays the sound
    /// and reports a 0×0 video with no frames decoded).
    func testChromiumShowsWebMGIFAndWebPOutputs() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.chromium) else {
            throw XCTSkip("\(Self.chromium) is not installed (scripts/install-deps.sh --test)")
        }
        _ = try tone(seconds: 1)
        for (name, audio) in [
            ("clip.webm", true), ("clip.hevc.mp4", true), ("clip.gif", false), ("clip.webp", false),
        ] {
            let format = name.hasSuffix(".hevc.mp4") ? #""format": "hevc", "# : ""
            let job = try write(
                "\(name).json",
                """
                {"kiln": 1, "output": {\(format)"path": "\(name)", "width": 96, "height": 64, "fps": 30, "duration": 1},
                 "layers": [{"type": "shape", "shape": "rect", "size": [64, 48], "position": [64, 40],
                             "fill": {"keyframes": [{"t": 0, "v": "#2080ff"}, {"t": 1, "v": "#ff8020"}]}}]\(audio ? #", "audio": {"path": "tone.flac"}"# : "")}
                """)
            let rendered = try KilnProcess.run(["render", job, "--progress", "none"])
            XCTAssertEqual(rendered.status, 0, "\(name): \(rendered.stderr)")
        }
        let verdicts = try play(["clip.webm", "clip.hevc.mp4"], images: ["clip.gif", "clip.webp"])
        let webm = try XCTUnwrap(verdicts.videos["clip.webm"], "clip.webm: no verdict")
        XCTAssertNil(webm.error, "clip.webm: media error")
        XCTAssertTrue(webm.events.contains("ended"), "clip.webm did not play to its end: \(webm.events)")
        XCTAssertEqual(try XCTUnwrap(webm.duration, "clip.webm: no duration"), 1, accuracy: 1.0 / 30)
        XCTAssertEqual([webm.width, webm.height], [96, 64])
        XCTAssertEqual(webm.decodedFrames, 30, "clip.webm: frames decoded")
        print("Chromium on clip.hevc.mp4: \(String(describing: verdicts.videos["clip.hevc.mp4"]))")
        for name in ["clip.gif", "clip.webp"] {
            let image = try XCTUnwrap(verdicts.images[name], "\(name): no verdict")
            XCTAssertNil(image.error, "\(name): not decoded")
            guard image.error == nil else { continue }
            XCTAssertEqual([image.width, image.height], [96, 64], name)
            XCTAssertEqual(image.corner[3], 0, "\(name): the uncovered corner is not transparent")
            // The first frame's fill, #2080ff, within what a palette or lossy coding changes.
            XCTAssertEqual(image.centre[3], 255, name)
            for (got, want) in zip(image.centre.prefix(3), [0x20, 0x80, 0xff]) {
                XCTAssertEqual(Double(got), Double(want), accuracy: 8, "\(name): centre \(image.centre)")
            }
        }
    }

    /// What the page saw of one image: its size and two pixels of its first frame, RGBA.
    struct ImageVerdict: Decodable {
        let error: String?
        let width: Int
        let height: Int
        let corner: [Int]
        let centre: [Int]
    }

    struct Verdicts: Decodable {
        let videos: [String: Verdict]
        let images: [String: ImageVerdict]
    }

    /// Plays `videos` and draws the first frame of each of `images` on a canvas, in one page.
    func play(_ videos: [String], images: [String]) throws -> Verdicts {
        let names = String(decoding: try JSONSerialization.data(withJSONObject: images), as: UTF8.self)
        let script = """
            const imageVerdicts = {};
            const imagesDone = Promise.all(\(names).map(async name => {
              const image = new Image();
              image.src = name;
              try {
                await image.decode();
                const canvas = document.createElement("canvas");
                canvas.width = image.naturalWidth;
                canvas.height = image.naturalHeight;
                const context = canvas.getContext("2d");
                context.drawImage(image, 0, 0);
                const pixel = (x, y) => Array.from(context.getImageData(x, y, 1, 1).data);
                imageVerdicts[name] = { error: null, width: image.naturalWidth, height: image.naturalHeight,
                                        corner: pixel(2, 2), centre: pixel(image.naturalWidth / 2 + 16, image.naturalHeight / 2 + 8) };
              } catch (e) {
                imageVerdicts[name] = { error: String(e), width: 0, height: 0, corner: [], centre: [] };
              }
            }));
            """
        let verdicts = try play(
            videos, extraScript: script,
            finish: "imagesDone.then(() => report({videos: verdicts, images: imageVerdicts}))")
        return try JSONDecoder().decode(Verdicts.self, from: verdicts)
    }

    func play(_ videos: [String]) throws -> [String: Verdict] {
        let data = try play(videos, extraScript: "", finish: "report(verdicts)")
        return data.isEmpty ? [:] : try JSONDecoder().decode([String: Verdict].self, from: data)
    }

    /// Plays `videos` (in the scratch directory) at once in one headless Chromium page and
    /// returns what the page saw of each. The page reports on the console, which Chromium logs
    /// to a file, and closes its window when every video has ended or failed, which ends the
    /// browser. (Virtual time, `--virtual-time-budget`, does not move media playback on, so the
    /// page cannot simply be dumped once a budget runs out.)
    /// `extraScript` runs first; `finish` is the statement run once every video has settled,
    /// which must call `report(value)`; the value's JSON is returned.
    func play(_ videos: [String], extraScript: String, finish: String) throws -> Data {
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
            \(extraScript)
            const verdicts = {};
            let playing = 0;
            function report(value) {
              console.log("KILN-VERDICT " + JSON.stringify(value));
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
                if (--playing === 0) \(finish);
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
                // File pages may read their own images' pixels (a canvas of a file:// image
                // is otherwise tainted).
                "--autoplay-policy=no-user-gesture-required", "--allow-file-access-from-files",
                "--enable-logging", "--v=0",
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
            return Data()
        }
        return Data(line[start..<end].utf8)
    }
}
