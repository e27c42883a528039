import Foundation
import KilnTestSupport
import XCTest

/// `kiln review`: the page for a batch, for recent jobs and for files given directly, checked as
/// text (self-contained, every video, job text escaped) and played by headless Chromium.
final class ReviewCommandTests: QueueTestCase {
    static let chromium = "/usr/bin/chromium"
    static let hostile = #"<script>alert("x")</script> & 'q'"#
    static let width = 192, height = 108, frames = 45, fps = 30.0

    /// Two jobs through the queue (one batch) and one by `kiln render`.
    func renderVideos() throws -> Int {
        _ = try write(
            "clip.json",
            ##"""
            {"kiln": 1, "variables": {"title": "x", "color": {"type": "color", "default": "#ff5a36"}, "label": "none"},
             "output": {"path": "out/clip-{title}.mp4", "width": \##(Self.width), "height": \##(Self.height), "fps": 30,
                        "duration": {"frames": \##(Self.frames)}, "preset": "ultrafast"},
             "layers": [{"type": "solid", "color": "#20243a"}, {"type": "meshGradient", "width": 2, "height": 2,
                         "points": [[0, 0], [1, 0], [0, 1], {"keyframes": [{"t": 0, "v": [1, 1]}, {"t": 1.5, "v": [0.45, 0.55]}]}],
                         "colors": [{"var": "color"}, "#3a1c71", "#00a8cc", "#ffb347"]}]}
            """##)
        let label = String(
            decoding: try JSONSerialization.data(withJSONObject: [Self.hostile]), as: UTF8.self
        )
        .dropFirst().dropLast()
        _ = try write(
            "rows.jsonl",
            """
            {"title": "sunrise", "color": "#ff5a36", "label": \(label)}
            {"title": "dusk", "color": "#2d6cdf", "label": "plain"}

            """)
        let queued = try kiln(["enqueue", "clip.json", "--batch", "rows.jsonl"])
        XCTAssertEqual(queued.status, 0, queued.stderr)
        XCTAssertEqual(try kiln(["worker", "--drain"]).status, 0)
        let rendered = try kiln(["render", "clip.json", "--set", "title=solo", "-o", "out/solo #1 & co.mp4"])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        return try XCTUnwrap(try status().first?["batch"] as? Int)
    }

    func testBatchSinceAndFilesMakeSelfContainedPagesThatChromiumPlays() throws {
        let batch = try renderVideos()

        let byBatch = try kiln(["review", "--batch", "\(batch)", "-o", "pages/batch.html"])
        XCTAssertEqual(byBatch.status, 0, byBatch.stderr)
        let batchPage = try page("pages/batch.html")
        XCTAssertEqual(articles(batchPage), ["../out/clip-sunrise.mp4", "../out/clip-dusk.mp4"])

        let recent = try kiln(["review", "--since", "1h", "-o", "recent.html"])
        XCTAssertEqual(recent.status, 0, recent.stderr)
        XCTAssertEqual(articles(try page("recent.html")), ["out/clip-sunrise.mp4", "out/clip-dusk.mp4"])

        let files = ["out/clip-sunrise.mp4", "out/clip-dusk.mp4", "out/solo #1 & co.mp4"]
        // Linked relative to the page, percent-encoded for a URL and escaped for HTML.
        let links = ["out/clip-sunrise.mp4", "out/clip-dusk.mp4", "out/solo%20%231%20&%20co.mp4"]
        let given = try kiln(["review"] + files + ["-o", "review.html"])
        XCTAssertEqual(given.status, 0, given.stderr)
        XCTAssertFalse(given.stderr.contains("no queue record"), "solo's tags name its job: \(given.stderr)")
        let html = try page("review.html")
        XCTAssertEqual(articles(html), links.map { $0.replacingOccurrences(of: "&", with: "&amp;") })
        XCTAssertTrue(html.contains("solo #1 &amp; co.mp4</h2>"), "the name, escaped")
        if UserAttributes.work(in: directory) {
            XCTAssertFalse(html.contains("<dt>Render time</dt><dd>unknown"), "solo's is recorded on it")
            XCTAssertEqual(
                html.components(separatedBy: "(recorded on the file)</dd>").count - 1, 1, "solo's render time"
            )
        }
        XCTAssertTrue(html.contains("<dt>Job</dt><dd>clip.json (from the file&#39;s tags"), "solo's job")
        XCTAssertEqual(
            html.components(separatedBy: "<details class=\"sheet\"").count - 1, 3,
            "sheets: 2 rendered, 1 decoded")
        XCTAssertEqual(html.components(separatedBy: "poster=\"data:image/jpeg;base64,").count - 1, 3)
        for fact in [
            "<dd>1.50 s</dd>", "<dd>45 at 30 fps</dd>", "<dd>192 × 108</dd>",
            "<dd>h264, yuv420p, no audio</dd>",
            "primaries bt709 · transfer bt709 · matrix bt709 · range tv",
        ] {
            XCTAssertEqual(html.components(separatedBy: fact).count - 1, 3, fact)
        }

        try assertChromiumPlays(page: "review.html", videos: links)
    }

    func testRefusesMixedFormsAndAnUnknownBatch() throws {
        _ = try renderVideos()
        let both = try kiln(["review", "out/clip-dusk.mp4", "--since", "1h", "-o", "x.html"])
        XCTAssertEqual(both.status, 64, both.stderr)
        let notHTML = try kiln(["review", "out/clip-dusk.mp4", "-o", "x.png"])
        XCTAssertEqual(notHTML.status, 64, notHTML.stderr)
        let unknown = try kiln(["review", "--batch", "999", "-o", "x.html"])
        XCTAssertEqual(unknown.status, 66, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("no batch with job 999"), unknown.stderr)
        let missing = try kiln(["review", "out/none.mp4", "-o", "x.html"])
        XCTAssertEqual(missing.status, 66, missing.stderr)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.html").path))
    }

    /// The automatic form: a worker's hook runs `kiln review --batch --if-ended` after every job
    /// end; only the batch's last end writes the page, with every video on it.
    func testAWorkerHookWritesTheBatchPageWhenItsLastJobEnds() throws {
        let batch = try renderVideos()
        let early = try kiln(["review", "--batch", "\(batch)", "--if-ended", "-o", "early.html"])
        XCTAssertEqual(early.status, 0, early.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("early.html").path))

        let queued = try kiln(["enqueue", "clip.json", "--set", "title=one", "--set", "label=a"])
        XCTAssertEqual(queued.status, 0, queued.stderr)
        let second = try kiln(["enqueue", "clip.json", "--batch", "rows.jsonl", "--allow-overwrite"])
        XCTAssertEqual(second.status, 0, second.stderr)
        let newBatch = try XCTUnwrap(try status().compactMap { $0["batch"] as? Int }.max())
        let waiting = try kiln(["review", "--batch", "\(newBatch)", "--if-ended", "-o", "waiting.html"])
        XCTAssertEqual(waiting.status, 0, waiting.stderr)
        XCTAssertTrue(waiting.stderr.contains("2 jobs yet to end: no page yet"), waiting.stderr)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("waiting.html").path))

        let pattern = directory.appendingPathComponent("auto-$KILN_JOB_BATCH.html").path
        let hook =
            "'\(KilnProcess.binary.path)' review --batch \"$KILN_JOB_BATCH\" --if-ended -o \"\(pattern)\""
        let worker = try kiln(["worker", "--drain", "--on-done", hook])
        XCTAssertEqual(worker.status, 0, worker.stderr)
        let written = directory.appendingPathComponent("auto-\(newBatch).html")
        try waitUntil(30, "the hook's page") { FileManager.default.fileExists(atPath: written.path) }
        XCTAssertEqual(
            articles(try page(written.lastPathComponent)), ["out/clip-sunrise.mp4", "out/clip-dusk.mp4"])
    }

    /// A split job is one video on the page (its segments are not), and its render time, from
    /// its first segment's start to the assembly's end, is known.
    func testASplitJobIsOneVideoWithItsRenderTime() throws {
        _ = try renderVideos()
        let queued = try kiln(["enqueue", "clip.json", "--set", "title=split", "--segments", "3"])
        XCTAssertEqual(queued.status, 0, queued.stderr)
        XCTAssertEqual(try kiln(["worker", "--drain"]).status, 0)
        let recent = try kiln(["review", "--since", "1h", "-o", "recent.html"])
        XCTAssertEqual(recent.status, 0, recent.stderr)
        let html = try page("recent.html")
        XCTAssertEqual(articles(html), ["out/clip-sunrise.mp4", "out/clip-dusk.mp4", "out/clip-split.mp4"])
        XCTAssertFalse(html.contains("<dd>unknown"), "every fact is known for queued jobs")
        XCTAssertEqual(html.components(separatedBy: "<dt>Real-time factor</dt><dd>").count - 1, 3)
    }

    /// The page's text, checked for what every page must be: nothing fetched from elsewhere, and
    /// job text escaped (the hostile label appears only escaped).
    func page(_ name: String) throws -> String {
        let html = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        XCTAssertFalse(html.contains("http://") || html.contains("https://") || html.contains("//cdn"), name)
        XCTAssertFalse(html.contains(Self.hostile), "\(name): the label is not escaped")
        XCTAssertFalse(html.contains("<script>alert"), name)
        XCTAssertFalse(html.contains(directory.path), "\(name): an absolute path")
        XCTAssertTrue(
            html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"), name)
        return html
    }

    /// The videos' links, in page order.
    func articles(_ html: String) -> [String] {
        html.components(separatedBy: "<article class=\"video\"").dropFirst().compactMap { part in
            guard let start = part.range(of: "data-video=\"")?.upperBound,
                let end = part[start...].firstIndex(of: "\"")
            else { return nil }
            return String(part[start..<end])
        }
    }
}
