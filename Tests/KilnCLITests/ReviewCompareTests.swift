import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// The review page's comparison and pinned notes, driven by headless Chromium: two renders of one
/// job whose caption changed differ only where the caption is; playback and seeking stay in step;
/// notes pinned on the timeline survive a reload and leave in Export JSON with their times; and
/// the page names no absolute path.
final class ReviewCompareTests: QueueTestCase {
    static let width = 192, height = 108
    /// The caption's band: below it the captions differ, above it the frames are the same.
    static let captionTop = 60

    /// Two renders of one job through the queue, its caption changed between them. The
    /// background is a grey that is exactly Y = U = V = 128, which H.264 predicts without error
    /// whatever the quantiser, so only the caption's blocks can differ.
    func renderTwoTakes() throws {
        _ = try write(
            "promo.json",
            ##"""
            {"kiln": 1, "variables": {"take": "one", "caption": "First take"},
             "output": {"path": "out/promo-{take}.mp4", "width": \##(Self.width), "height": \##(Self.height),
                        "fps": 30, "duration": {"frames": 15}, "preset": "ultrafast"},
             "layers": [{"type": "solid", "color": "#828282"},
                        {"type": "text", "text": {"var": "caption"}, "size": 18, "color": "#ffffff",
                         "position": [24, 84]}]}
            """##)
        for (take, caption) in [("one", "First take"), ("two", "Second take")] {
            let queued = try kiln([
                "enqueue", "promo.json", "--set", "take=\(take)", "--set", "caption=\(caption)",
            ])
            XCTAssertEqual(queued.status, 0, queued.stderr)
            let worker = try kiln(["worker", "--drain"])
            XCTAssertEqual(worker.status, 0, worker.stderr)
        }
    }

    func testTwoTakesDifferOnlyWhereTheCaptionIsAndPlayInStep() throws {
        try renderTwoTakes()
        let made = try kiln(["review", "--since", "1h", "-o", "pages/review.html"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let html = try pageText("pages/review.html")
        XCTAssertTrue(
            html.contains("data-previous=\"../out/promo-one.mp4\""), "take two offers to compare with one")
        let report = try probe(page: "pages/review.html", script: Self.compareProbe)
        XCTAssertEqual(report["problems"] as? [String], [], "\(report)")
        XCTAssertNil(report["error"], "\(report)")
        XCTAssertEqual(report["previous"] as? [String], ["../out/promo-one.mp4"])
        XCTAssertEqual(report["pickable"] as? [Bool], [true, false], "Compare picked waits for two picks")

        // Synced: both play, and after a seek both show the same time.
        let playing = try XCTUnwrap(report["playing"] as? [Double], "\(report)")
        XCTAssertGreaterThan(playing[0], 0.05, "A advanced while playing")
        XCTAssertEqual(playing[0], playing[1], accuracy: 0.1, "B follows A")
        let seeked = try XCTUnwrap(report["seeked"] as? [Double], "\(report)")
        XCTAssertEqual(seeked[0], 0.25, accuracy: 0.01)
        XCTAssertEqual(seeked[1], seeked[0], accuracy: 1e-6)
        XCTAssertEqual(report["wipe"] as? String, "inset(0px 0px 0px 30%)", "the wipe cuts B at the split")

        // The difference view, as the canvas shows it.
        let dataURL = try XCTUnwrap(report["png"] as? String, "\(report)")
        let png = try XCTUnwrap(
            Data(base64Encoded: String(dataURL.dropFirst("data:image/png;base64,".count))))
        let shot = try PNGCodec.decode(Array(png))
        XCTAssertEqual([shot.width, shot.height], [Self.width, Self.height])
        var lit = 0, litAbove = 0, firstRow = Self.height
        for y in 0..<shot.height {
            for x in 0..<shot.width {
                let i = (y * shot.width + x) * 4
                guard max(shot.rgba[i], shot.rgba[i + 1], shot.rgba[i + 2]) > 0 else { continue }
                lit += 1
                firstRow = min(firstRow, y)
                if y < Self.captionTop { litAbove += 1 }
            }
        }
        print("difference: \(lit) lit pixels, first at row \(firstRow)")
        XCTAssertGreaterThan(lit, 100, "the captions differ")
        XCTAssertEqual(litAbove, 0, "black where the frames are the same (first lit row \(firstRow))")
        try png.write(to: directory.appendingPathComponent("difference.png"))
    }

    func testNotesPinnedToATimeSurviveAReloadAndAreExported() throws {
        try renderTwoTakes()
        let made = try kiln(["review", "out/promo-one.mp4", "out/promo-two.mp4", "-o", "review.html"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let report = try probe(page: "review.html", script: Self.notesProbe)
        XCTAssertEqual(report["problems"] as? [String], [], "\(report)")
        XCTAssertNil(report["error"], "\(report)")
        XCTAssertEqual(report["reloaded"] as? Bool, true, "\(report)")
        // A click lands on a whole pixel: the times are within a pixel's worth of 1/4 and 3/4.
        let markers = try XCTUnwrap(report["markers"] as? [Double], "\(report)")
        XCTAssertEqual(markers.count, 2, "markers after the reload")
        for (marker, expected) in zip(markers, [0.125, 0.375]) {
            XCTAssertEqual(marker, expected, accuracy: 0.003)
        }
        XCTAssertEqual(
            try XCTUnwrap(report["seekedTo"] as? Double), markers.last ?? 0, accuracy: 1e-6, "a marker seeks")
        let exported = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(report["exported"] as? String).utf8))
                as? [[String: Any]])
        XCTAssertEqual(exported.map { $0["video"] as? String }, ["out/promo-one.mp4", "out/promo-two.mp4"])
        let notes = try XCTUnwrap(exported.first?["notes"] as? [[String: Any]])
        XCTAssertEqual(notes.compactMap { $0["time"] as? Double }, markers, "exported with their times")
        XCTAssertEqual(notes.map { $0["text"] as? String }, ["logo <late>", "caption typo"])
        XCTAssertEqual((exported.last?["notes"] as? [Any])?.count, 0)
    }

    /// No absolute path of this machine is on the page, not even in errors; a video that shares
    /// no folder but the root with the page is said to be unreachable, not linked.
    func testThePageNamesNoAbsolutePath() throws {
        try renderTwoTakes()
        let far = URL(fileURLWithPath: "/dev/shm/kiln-review-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: far, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: far) }
        try FileManager.default.copyItem(
            at: outputs.appendingPathComponent("promo-one.mp4"), to: far.appendingPathComponent("far.mp4"))
        let made = try kiln([
            "review", "out/promo-one.mp4", far.appendingPathComponent("far.mp4").path, "-o",
            "pages/review.html",
        ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let html = try pageText("pages/review.html")
        XCTAssertFalse(html.contains("/dev/shm"), "the far video's folder")
        XCTAssertTrue(html.contains("not reachable from the page&#39;s folder"), "said instead")
        XCTAssertTrue(html.contains("data-video=\"far.mp4\" data-duration"), "keyed by its name")
        XCTAssertFalse(html.contains("src=\"../../"), "never linked by climbing to the root")
        // A variable holding an absolute path keeps only its last component on the page.
        let queued = try kiln([
            "enqueue", "promo.json", "--set", "take=path", "--set", "caption=/home/someone/intro.mov",
        ])
        XCTAssertEqual(queued.status, 0, queued.stderr)
        XCTAssertEqual(try kiln(["worker", "--drain"]).status, 0)
        XCTAssertEqual(try kiln(["review", "--since", "1h", "-o", "pages/since.html"]).status, 0)
        let since = try pageText("pages/since.html")
        XCTAssertFalse(since.contains("/home/someone"), "the variable's folders")
        XCTAssertTrue(since.contains("<td>…/intro.mov</td>"), "its last component")
        // Render time and job from the file's own tags (kiln render knows no queue).
        let solo = try kiln(["render", "promo.json", "--set", "take=solo", "-o", "solo.mp4"])
        XCTAssertEqual(solo.status, 0, solo.stderr)
        let single = try kiln(
            ["review", "solo.mp4", "-o", "solo.html"], environment: ["KILN_QUEUE": "sqlite:none.db"])
        XCTAssertEqual(single.status, 0, single.stderr)
        let soloPage = try pageText("solo.html")
        XCTAssertTrue(soloPage.contains("<dt>Job</dt><dd>promo.json (from the file&#39;s tags"), soloPage)
        if UserAttributes.work(in: directory) {
            XCTAssertFalse(soloPage.contains("<dt>Render time</dt><dd>unknown"), "from the file's attribute")
            XCTAssertTrue(soloPage.contains("(recorded on the file)</dd>"), "render time's source said")
        }
        XCTAssertTrue(soloPage.contains("<dt>Kiln version</dt>"))
        XCTAssertTrue(soloPage.contains("<dt>Frames digest</dt>"))
    }

    /// A file from elsewhere can put anything in its tags: the page shows only kiln_* ones,
    /// escaped, cut short, paths reduced to their last component, and no impossible render time.
    func testHostileTagsAreEscapedAndScrubbed() throws {
        let path = directory.appendingPathComponent("forged-by-kiln.mp4").path
        let writer = try VideoFileWriter(
            path: path,
            settings: VideoSettings(
                width: 64, height: 36, frameRateNumerator: 30, frameRateDenominator: 1, preset: "ultrafast"),
            tags: ContainerTags(known: [
                .init(ContainerTags.job, "<script>alert(1)</script> /home/someone/secret/job.json"),
                .init(ContainerTags.version, String(repeating: "9", count: 5000)),
                .init("kiln_render_seconds", "-inf"),
                .init("comment", "/srv/private/other"),
            ]))
        let plane = [UInt8](repeating: 128, count: 64 * 36)
        for _ in 0..<3 { try writer.append(y: plane, yStride: 64, u: plane, v: plane, uvStride: 32) }
        try writer.finish()
        // Copied as bytes: a file from elsewhere, without the render time a Kiln writer records.
        try Data(contentsOf: URL(fileURLWithPath: path)).write(
            to: directory.appendingPathComponent("forged.mp4"))
        let made = try kiln(["review", "forged.mp4", "-o", "forged.html"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let html = try pageText("forged.html")
        XCTAssertFalse(html.contains("<script>alert"), "escaped")
        XCTAssertFalse(html.contains("/home/someone") || html.contains("/srv/private"), "paths scrubbed")
        XCTAssertTrue(html.contains("…/job.json"), "the last component kept")
        XCTAssertFalse(html.contains(String(repeating: "9", count: 201)), "cut short")
        XCTAssertTrue(html.contains("<dt>Render time</dt><dd>unknown</dd>"), "-inf is no render time")
    }

    /// The page's text, which must name no absolute path of this machine.
    func pageText(_ name: String) throws -> String {
        let html = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        for root in [
            directory.path, directory.resolvingSymlinksInPath().path, "/proc/self", "/tmp/", "/home/",
            "/root/",
        ] {
            XCTAssertFalse(html.contains(root), "\(name) names \(root)")
        }
        return html
    }

    /// Runs `script` in a copy of the page (beside it, so its links hold) under headless Chromium
    /// and returns the object it logged as `KILN-PROBE {…}`. File access from files is allowed so
    /// the probe may read the difference canvas back; the page itself never reads it.
    func probe(page name: String, script: String) throws -> [String: Any] {
        guard FileManager.default.isExecutableFile(atPath: ReviewCommandTests.chromium) else {
            throw XCTSkip("\(ReviewCommandTests.chromium) is not installed")
        }
        let html = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        let head = try XCTUnwrap(html.range(of: "<head>"))
        var probed = html
        probed.insert(contentsOf: "\n<script>\(Self.errors)\(script)</script>", at: head.upperBound)
        let page = directory.appendingPathComponent(name).deletingLastPathComponent()
            .appendingPathComponent("probe.html")
        try Data(probed.utf8).write(to: page)
        let log = directory.appendingPathComponent("chromium-probe.log")
        let status = try KilnProcess.runWithTimeout(
            ReviewCommandTests.chromium,
            ReviewCommandTests.browserFlags + [
                "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
                "--autoplay-policy=no-user-gesture-required", "--allow-file-access-from-files",
                "--enable-logging", "--v=0", "--log-file=\(log.path)", page.absoluteString,
            ], timeout: 150)
        XCTAssertNotNil(status, "chromium did not finish")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").last(where: { $0.contains("KILN-PROBE ") }),
            let start = line.range(of: "KILN-PROBE ")?.upperBound,
            let end = line.range(of: "}", options: .backwards)?.upperBound
        else {
            XCTFail("no report in Chromium's log:\n\(text.suffix(4000))")
            return [:]
        }
        return try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(line[start..<end].utf8)) as? [String: Any])
    }

    /// Collects what the page raises, before its own script runs.
    static let errors = """

        window.kilnProblems = [];
        window.addEventListener("error", (event) => window.kilnProblems.push(`error: ${event.message || ""}`), true);
        window.addEventListener("unhandledrejection", (event) => window.kilnProblems.push("rejection: " + event.reason));
        const kilnSleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
        const kilnReport = (out) => {
          out.problems = window.kilnProblems;
          console.log("KILN-PROBE " + JSON.stringify(out));
          window.close();
        };

        """

    static let compareProbe = """

        window.addEventListener("load", async () => {
          const out = {};
          try {
            out.previous = [...document.querySelectorAll("button.compare-previous")].map((b) => b.dataset.previous);
            const picked = document.getElementById("compare-picked");
            out.pickable = [picked.disabled];
            for (const box of document.querySelectorAll("input.pick")) box.click();
            out.pickable.push(picked.disabled);
            document.querySelector("button.compare-previous").click();
            const [a, b] = window.kilnCompare.videos();
            await new Promise((resolve) => {
              const check = () => (a.readyState >= 2 && b.readyState >= 2 ? resolve() : setTimeout(check, 50));
              check();
            });
            document.getElementById("compare-play").click();
            await kilnSleep(400);
            out.playing = [a.currentTime, b.currentTime];
            document.getElementById("compare-play").click();
            const seek = document.getElementById("compare-seek");
            const total = Math.min(a.duration, b.duration);
            seek.value = String(Math.round((0.25 / total) * 1000));
            const both = Promise.all([a, b].map((v) => new Promise((r) => v.addEventListener("seeked", r, { once: true }))));
            seek.dispatchEvent(new Event("input"));
            await both;
            out.seeked = [a.currentTime, b.currentTime];
            window.kilnCompare.mode("wipe");
            const stage = document.getElementById("compare-stage");
            const box = stage.getBoundingClientRect();
            const at = box.left + box.width * 0.3;
            stage.dispatchEvent(new PointerEvent("pointerdown", { clientX: at, clientY: box.top + 5, pointerId: 1, bubbles: true }));
            stage.dispatchEvent(new PointerEvent("pointerup", { clientX: at, clientY: box.top + 5, pointerId: 1, bubbles: true }));
            out.wipe = getComputedStyle(stage.querySelector(".pane.b")).clipPath.replace(/\\.\\d+%/, "%");
            await window.kilnCompare.seek(0.25);
            window.kilnCompare.mode("difference");
            const canvas = document.getElementById("compare-difference");
            out.png = canvas.toDataURL("image/png");
          } catch (error) {
            out.error = String((error && error.stack) || error);
          }
          kilnReport(out);
        });

        """

    /// First load: pins two notes on the first video's timeline (at 1/4 and 3/4 of its 0.5 s),
    /// names them, and reloads. Second load: reads the markers, clicks one, exports.
    static let notesProbe = """

        window.addEventListener("load", async () => {
          const out = {};
          try {
            const article = document.querySelector("article.video");
            const bar = article.querySelector(".timeline");
            const box = bar.getBoundingClientRect();
            if (!sessionStorage.getItem("kiln-probe-reloaded")) {
              for (const [fraction, text] of [[0.75, "caption typo"], [0.25, "logo <late>"]]) {
                bar.dispatchEvent(new MouseEvent("click", { clientX: box.left + box.width * fraction, clientY: box.top + 4, bubbles: true }));
                const input = [...article.querySelectorAll("ol.pins input")].find((i) => i.value === "");
                input.value = text;
                input.dispatchEvent(new Event("input"));
              }
              sessionStorage.setItem("kiln-probe-reloaded", "1");
              location.reload();
              return;
            }
            out.reloaded = true;
            const markers = [...bar.querySelectorAll(".pin")];
            out.markers = markers.map((m) => Number(m.dataset.time));
            markers[1].click();
            out.seekedTo = article.querySelector("video").currentTime;
            out.exported = window.kilnReview();
          } catch (error) {
            out.error = String((error && error.stack) || error);
          }
          kilnReport(out);
        });

        """
}
