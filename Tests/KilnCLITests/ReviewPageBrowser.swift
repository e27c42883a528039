import Foundation
import XCTest

/// Headless Chromium against a review page, as BrowserPlaybackTests plays videos: a copy of the
/// page (beside it, so its relative links hold) gets a probe script first in its <head>, which
/// records every error the page raises, loads and plays each <video>, uses the review controls,
/// and reports on the console, which Chromium logs to a file.
extension ReviewCommandTests {
    /// What the probe saw of one video.
    struct Playback: Decodable {
        let events: [String]
        let error: String?
        let duration: Double?
        let width: Int
        let height: Int
        let currentTime: Double
    }

    struct Report: Decodable {
        let videos: [String: Playback]
        let problems: [String]
        let exported: String
        let tally: String
    }

    func assertChromiumPlays(page name: String, videos: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.chromium) else {
            throw XCTSkip("\(Self.chromium) is not installed (scripts/install-deps.sh --test)")
        }
        let html = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        let head = try XCTUnwrap(html.range(of: "<head>"), "no <head>")
        var probed = html
        probed.insert(contentsOf: "\n<script>\(Self.probe)</script>", at: head.upperBound)
        let probePage = directory.appendingPathComponent("probe-" + name)
        try Data(probed.utf8).write(to: probePage)

        let report = try XCTUnwrap(try run(probePage))
        print("chromium saw: \(report.videos.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" })")
        XCTAssertEqual(report.problems, [], "the page raised errors")
        XCTAssertEqual(Set(report.videos.keys), Set(videos))
        for video in videos {
            let seen = try XCTUnwrap(report.videos[video], video)
            XCTAssertNil(seen.error, "\(video): media error")
            XCTAssertTrue(seen.events.contains("loadedmetadata"), "\(video): \(seen.events)")
            XCTAssertEqual(
                try XCTUnwrap(seen.duration, "\(video): no duration"), Double(Self.frames) / Self.fps,
                accuracy: 1 / Self.fps, video)
            XCTAssertEqual([seen.width, seen.height], [Self.width, Self.height], video)
            XCTAssertTrue(
                seen.events.contains("playing") && seen.events.contains("ended"), "\(video): \(seen.events)")
            XCTAssertEqual(
                seen.currentTime, Double(Self.frames) / Self.fps, accuracy: 1 / Self.fps, "\(video): stopped")
        }
        // The probe approved the first video with a note; Export JSON's content says so.
        let exported = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(report.exported.utf8)) as? [[String: Any]])
        XCTAssertEqual(exported.map { $0["video"] as? String }, videos)
        XCTAssertEqual(exported.first?["verdict"] as? String, "approved")
        XCTAssertEqual(exported.first?["note"] as? String, "looks <fine>")
        XCTAssertTrue(exported.dropFirst().allSatisfy { $0["verdict"] is NSNull }, "\(exported)")
        XCTAssertTrue(report.tally.hasPrefix("1 approved"), report.tally)

        try screenshot(directory.appendingPathComponent(name))
    }

    /// Runs Chromium on `page` until the probe closes it; the report it logged.
    func run(_ page: URL) throws -> Report? {
        let log = directory.appendingPathComponent("chromium.log")
        let status = try KilnProcess.runWithTimeout(
            Self.chromium,
            Self.browserFlags + [
                "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
                "--autoplay-policy=no-user-gesture-required", "--enable-logging", "--v=0",
                "--log-file=\(log.path)", page.absoluteString,
            ], timeout: 150)
        XCTAssertNotNil(status, "chromium did not finish")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        // Every console line comes from the page; the probe's report must be the only one.
        let console = text.split(separator: "\n").filter { $0.contains("CONSOLE") }
        XCTAssertEqual(console.filter { !$0.contains("KILN-REVIEW ") }, [], "the page logged to the console")
        guard let line = console.first(where: { $0.contains("KILN-REVIEW ") }),
            let start = line.range(of: "KILN-REVIEW ")?.upperBound,
            let end = line.range(of: "}", options: .backwards)?.upperBound
        else {
            XCTFail(
                "no report in Chromium's log (exit \(status.map(String.init) ?? "killed")):\n\(text.suffix(4000))"
            )
            return nil
        }
        return try JSONDecoder().decode(Report.self, from: Data(line[start..<end].utf8))
    }

    /// The page as a reviewer first sees it, taken by the same browser; KILN_UPDATE_SCREENSHOTS=1
    /// copies it to docs/review-page.png (the README shows it).
    func screenshot(_ page: URL) throws {
        let shot = directory.appendingPathComponent("review-page.png")
        let status = try KilnProcess.runWithTimeout(
            Self.chromium,
            Self.browserFlags + [
                "--user-data-dir=\(directory.appendingPathComponent("profile-shot").path)",
                "--hide-scrollbars", "--window-size=1280,1500", "--virtual-time-budget=5000",
                "--screenshot=\(shot.path)", page.absoluteString,
            ], timeout: 120)
        XCTAssertEqual(status, 0, "chromium --screenshot")
        let bytes = try Data(contentsOf: shot)
        XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG")
        if ProcessInfo.processInfo.environment["KILN_UPDATE_SCREENSHOTS"] == "1" {
            let docs = KilnProcess.repositoryRoot.appendingPathComponent("docs/review-page.png")
            try? FileManager.default.removeItem(at: docs)
            try FileManager.default.copyItem(at: shot, to: docs)
        }
    }

    static let browserFlags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]

    /// Runs before the page's own script: errors the page raises from then on are collected.
    /// Videos play at 4× so the three take under a second each.
    static let probe = """

        (() => {
          const problems = [];
          const original = console.error.bind(console);
          console.error = (...parts) => { problems.push("console.error: " + parts.join(" ")); original(...parts); };
          console.warn = (...parts) => { problems.push("console.warn: " + parts.join(" ")); };
          window.addEventListener("error", (event) => {
            const target = event.target && event.target !== window ? `${event.target.tagName} ${event.target.currentSrc || event.target.src || ""}` : "";
            problems.push(`error: ${event.message || ""} ${target}`.trim());
          }, true);
          window.addEventListener("unhandledrejection", (event) => problems.push("rejection: " + event.reason));
          document.addEventListener("DOMContentLoaded", () => {
            const videos = {};
            const elements = [...document.querySelectorAll("article.video video")];
            let open = elements.length;
            const finish = () => {
              const first = document.querySelector("article.video");
              first.querySelector("input[value=approved]").click();
              const note = first.querySelector("textarea");
              note.value = "looks <fine>";
              note.dispatchEvent(new Event("input"));
              const report = { videos, problems, exported: window.kilnReview(),
                tally: document.getElementById("tally").textContent };
              console.log("KILN-REVIEW " + JSON.stringify(report));
              window.close();
            };
            for (const video of elements) {
              const name = video.getAttribute("src");
              const seen = videos[name] = { events: [], width: 0, height: 0, currentTime: 0, duration: null, error: null };
              let settled = false;
              const settle = () => {
                if (settled) return;
                settled = true;
                Object.assign(seen, {
                  error: video.error ? `${video.error.code} ${video.error.message}` : null,
                  duration: Number.isFinite(video.duration) ? video.duration : null,
                  width: video.videoWidth, height: video.videoHeight, currentTime: video.currentTime,
                });
                if (--open === 0) finish();
              };
              const play = () => {
                video.muted = true;
                video.playbackRate = 4;
                video.play().catch((error) => { seen.events.push("play failed: " + error); settle(); });
              };
              for (const event of ["loadedmetadata", "playing", "ended", "error"]) {
                video.addEventListener(event, () => {
                  seen.events.push(event);
                  if (event === "loadedmetadata") play();
                  if (event === "ended" || event === "error") settle();
                });
              }
              // preload="metadata" may have loaded it already.
              if (video.readyState >= 1) { seen.events.push("loadedmetadata"); play(); }
              if (video.error) { seen.events.push("error"); settle(); }
              setTimeout(settle, 60000);
            }
            if (open === 0) finish();
          });
        })();

        """
}
