import Foundation
import KilnMedia
import XCTest

/// The studio's page in headless Chromium, driven through the DevTools protocol by
/// Fixtures/studio-driver.py: it logs no errors, the scrubber shows `kiln preview --at T`'s PNG,
/// a variable and a pinned number re-render, and editing the job file reloads it.
/// KILN_UPDATE_SCREENSHOTS=1 also writes the page as docs/studio.png.
final class StudioBrowserTests: TemporaryDirectoryTestCase {
    static let chromium = "/usr/bin/chromium"
    static let python = "/usr/bin/python3"

    struct Shown: Decodable {
        let frame: Int
        let scale: Double
        let hash: String
        let version: Int
        let draftRenders: Int
    }

    func testThePageScrubsTunesAndReloadsShowingPreviewPixels() throws {
        for tool in [Self.chromium, Self.python] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (scripts/install-deps.sh --test)")
        }
        let job = directory.appendingPathComponent("studio.json")
        try Data(StudioFixture.job().utf8).write(to: job)
        let pinned = "\"cornerRadius\": 50"
        let edited = StudioFixture.job(background: "#2060a0")
        let expected = [
            try previewHash(StudioFixture.job(), at: "1.2"),
            try previewHash(StudioFixture.job(), at: "1.2", ["--set", "accent=#00ff00"]),
            try previewHash(
                StudioFixture.job().replacingOccurrences(of: "\"cornerRadius\": 20", with: pinned), at: "1.2",
                ["--set", "accent=#00ff00"]),
            try previewHash(
                edited.replacingOccurrences(of: "\"cornerRadius\": 20", with: pinned), at: "1.2",
                ["--set", "accent=#00ff00"]),
        ]
        XCTAssertEqual(Set(expected).count, 4, "each step should change the frame")

        let studio = try StudioClient.start([job.path], cwd: directory)
        defer { _ = studio.stop() }
        let update = ProcessInfo.processInfo.environment["KILN_UPDATE_SCREENSHOTS"] == "1"
        let screenshot =
            update
            ? KilnProcess.repositoryRoot.appendingPathComponent("docs/studio.png")
            : directory.appendingPathComponent("studio.png")
        let steps: [[String: String]] = [
            ["eval": "kilnStudio.ready()"],
            ["eval": "kilnStudio.seek(1.2)"],
            ["eval": "kilnStudio.setVariable('accent', '#00ff00')"],
            ["eval": "kilnStudio.pin('layers[1].cornerRadius')"],
            ["eval": "kilnStudio.setPin('layers[1].cornerRadius', 50)"],
            ["screenshot": screenshot.path],
            ["eval": "window.seenVersion = kilnStudio.state().version"],
            ["write": job.path, "text": edited],
            ["eval": "kilnStudio.nextVersion(window.seenVersion)"],
            ["eval": "kilnStudio.playFor(700)"],
            ["eval": "window.seenVersion = kilnStudio.state().version"],
            ["write": job.path, "text": "{ \"kiln\": 1, \"output\": "],
            ["eval": "kilnStudio.nextVersion(window.seenVersion).then(() => kilnStudio.state())"],
        ]
        let report = try drive(studio.url, steps)
        XCTAssertEqual(report.errors, [], "the page logged errors")
        let shown = report.shown
        XCTAssertEqual(shown.count, 13)
        guard shown.count == 13 else { return }
        XCTAssertEqual(shown[1]?.frame, 36)
        XCTAssertEqual(shown[1]?.scale, 1)
        XCTAssertGreaterThan(shown[1]?.draftRenders ?? 0, 0, "dragging the scrubber rendered no draft")
        XCTAssertEqual(shown[1]?.hash, expected[0], "the scrubber at 1.2 s is not preview --at 1.2")
        XCTAssertEqual(shown[2]?.hash, expected[1], "a variable did not re-render as --set does")
        XCTAssertEqual(shown[4]?.hash, expected[2], "a pinned number did not render as the edited job")
        XCTAssertEqual(shown[8]?.hash, expected[3], "editing the job file did not reload it")
        XCTAssertGreaterThan(shown[8]?.version ?? 0, shown[4]?.version ?? 0)
        // Playing renders drafts, then the frame where it paused at full size.
        XCTAssertGreaterThan(
            (shown[9]?.draftRenders ?? 0) - (shown[8]?.draftRenders ?? 0), 0, "Play rendered no draft")
        XCTAssertEqual(shown[9]?.scale, 1)
        // An edit that does not load: its error on the page, the last good frame kept.
        let broken = report.results[12] as? [String: Any]
        XCTAssertTrue(
            (broken?["problem"] as? String ?? "").contains("does not load"), "\(String(describing: broken))")
        let kept = (broken?["last"] as? [String: Any])?["hash"] as? String
        XCTAssertNotNil(kept)
        let png = try Data(contentsOf: screenshot)
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "the screenshot is not a PNG")
    }

    /// A page served from another port of the same machine, even one that knows the token (the
    /// worst case), gets neither the job nor a picture of a file it names: the studio refuses
    /// requests another page makes (Sec-Fetch-Site, Origin) before it looks at anything else.
    func testAPageFromAnotherOriginGetsNothing() throws {
        for tool in [Self.chromium, Self.python] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (scripts/install-deps.sh --test)")
        }
        let secret = directory.appendingPathComponent("private/secret.png")
        try FileManager.default.createDirectory(
            at: secret.deletingLastPathComponent(), withIntermediateDirectories: true)
        let pixels = [UInt8](repeating: 90, count: 16 * 16 * 4)
        try Data(
            pixels.withUnsafeBufferPointer {
                try PNGCodec.encode(rgba: $0.baseAddress!, width: 16, height: 16, stride: 64)
            }
        ).write(to: secret)
        let job = directory.appendingPathComponent("studio.json")
        try Data(
            """
            {
              "kiln": 1,
              "variables": { "photo": "private/secret.png" },
              "output": { "path": "out.mp4", "width": 64, "height": 36, "fps": 30, "duration": 1 },
              "layers": [ { "type": "image", "path": { "var": "photo" }, "size": [64, 36], "fit": "fill" } ]
            }
            """.utf8
        ).write(to: job)
        // The roots hold the file: only the check on who asks stands between the page and it.
        let studio = try StudioClient.start([job.path, "--asset-root", directory.path], cwd: directory)
        defer { _ = studio.stop() }
        let site = directory.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try Data("<!doctype html><title>another site</title><p>hello</p>".utf8)
            .write(to: site.appendingPathComponent("index.html"))
        let other = try LocalSite(directory: site)
        defer { other.stop() }

        let target = "http://127.0.0.1:\(studio.port)"
        let photo = secret.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let probe = """
            (async () => {
              const studio = \(String(reflecting: target));
              const out = {};
              try { const r = await fetch(studio + "/job?token=\(studio.token)"); out.job = "read " + (await r.text()); }
              catch (e) { out.job = "failed"; }
              const image = (query) => new Promise((done) => {
                const img = new Image();
                img.onload = () => done("loaded " + img.naturalWidth);
                img.onerror = () => done("error");
                img.src = studio + "/frame?t=0&var.photo=\(photo)" + query;
              });
              out.imageWithToken = await image("&token=\(studio.token)");
              out.imageWithoutToken = await image("");
              return out;
            })()
            """
        let report = try drive(other.url, [["eval": probe]])
        let seen = report.results.first as? [String: String] ?? [:]
        XCTAssertEqual(seen["job"], "failed", "another page read the job: \(seen)")
        XCTAssertEqual(seen["imageWithToken"], "error", "another page got the picture: \(seen)")
        XCTAssertEqual(seen["imageWithoutToken"], "error", "another page got the picture: \(seen)")
        // The studio's own page, with the token, still gets it.
        XCTAssertEqual(try studio.get("/frame?t=0&var.photo=\(photo)").status, 200)
    }

    /// FNV-1a of the PNG `kiln preview` writes for `document` at `seconds`.
    func previewHash(_ document: String, at seconds: String, _ args: [String] = []) throws -> String {
        let job = directory.appendingPathComponent("expected-\(UUID().uuidString).json")
        try Data(document.utf8).write(to: job)
        let out = job.deletingPathExtension().appendingPathExtension("png")
        let result = try KilnProcess.run(["preview", job.path, "--at", seconds, "-o", out.path] + args)
        XCTAssertEqual(result.status, 0, result.stderr)
        return StudioFixture.fnv1a(Array(try Data(contentsOf: out)))
    }

    struct Report {
        let results: [Any]
        let errors: [String]
        var shown: [Shown?] {
            results.map { value in
                guard let object = value as? [String: Any], object["hash"] != nil,
                    let data = try? JSONSerialization.data(withJSONObject: object)
                else { return nil }
                return try? JSONDecoder().decode(Shown.self, from: data)
            }
        }
    }

    func drive(_ url: String, _ steps: [[String: String]]) throws -> Report {
        let stepsFile = directory.appendingPathComponent("steps.json")
        try JSONSerialization.data(withJSONObject: steps).write(to: stepsFile)
        let driver = KilnProcess.repositoryRoot.appendingPathComponent(
            "Tests/KilnCLITests/Fixtures/studio-driver.py")
        let (process, out, err) = try KilnProcess.launch(
            URL(fileURLWithPath: Self.python), [driver.path, Self.chromium, url, stepsFile.path],
            cwd: directory)
        let result = KilnProcess.collect(process, out, err)
        XCTAssertEqual(result.status, 0, result.stderr)
        let object =
            (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
        return Report(results: object["results"] as? [Any] ?? [], errors: object["errors"] as? [String] ?? [])
    }
}

/// `python3 -m http.server` on a free port of 127.0.0.1: a page of another origin.
struct LocalSite {
    let process: Process
    let url: String

    init(directory: URL) throws {
        let (process, out, _) = try KilnProcess.launch(
            URL(fileURLWithPath: StudioBrowserTests.python),
            ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory.path],
            cwd: directory)
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while !text.contains(" port "), Date() < deadline, process.isRunning {
            text += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        }
        guard let range = text.range(of: " port "),
            let port = Int(text[range.upperBound...].prefix { $0.isNumber })
        else {
            if process.isRunning { process.terminate() }
            throw StudioTestError("no port from python3 -m http.server: '\(text)'")
        }
        self.process = process
        url = "http://127.0.0.1:\(port)/index.html"
    }

    func stop() {
        process.terminate()
        _ = KilnProcess.waitForExit(process, timeout: 10)
    }
}
