import Foundation
import KilnMedia
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

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

    /// The keyboard as a person uses it (CDP key events, not calls into the page), the loop over an
    /// in/out range, Save with its diff and Undo, and the page noticing the server has stopped.
    /// The saved file differs from the original only in the two pinned numbers, and `kiln preview`
    /// of it is, byte for byte, the full-size frame the page showed after saving.
    func testShortcutsLoopSaveUndoAndAGoneServer() throws {
        for tool in [Self.chromium, Self.python] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (scripts/install-deps.sh --test)")
        }
        let job = directory.appendingPathComponent("studio.json")
        let original = StudioFixture.job()
        try Data(original.utf8).write(to: job)
        let studio = try StudioClient.start([job.path], cwd: directory)
        let pid = "\(studio.process.processIdentifier)"
        defer {
            kill(studio.process.processIdentifier, SIGCONT)
            _ = studio.stop()
        }
        func key(_ key: String, shift: Bool = false) -> [String: String] {
            shift ? ["key": key, "shift": "1"] : ["key": key]
        }
        let settled = ["eval": "kilnStudio.settled()"]
        let steps: [[String: String]] = [
            ["eval": "kilnStudio.ready()"],  // 0
            ["eval": "kilnStudio.seek(1.2)"],
            key("ArrowRight"), settled,  // 3: 37
            key("ArrowLeft", shift: true), settled,  // 5: 7
            key("End"), settled,  // 7: 59
            key("Home"), settled,  // 9: 0
            key("?"), ["eval": "kilnStudio.transport()"],  // 11: help shown
            key("Escape"), ["eval": "kilnStudio.transport()"],  // 13: help hidden
            key(" "), ["eval": "kilnStudio.transport()"],  // 15: playing
            key(" "), settled,  // 17: paused
            key("l"), key("l"), ["eval": "kilnStudio.transport()"],  // 20: 2× forwards
            key("k"), settled,  // 22: paused
            key("End"), settled, key("j"), ["eval": "kilnStudio.watch(400)"],  // 26: backwards
            key("k"), settled,
            ["eval": "kilnStudio.seek(0.5)"], key("i"), ["eval": "kilnStudio.seek(1)"], key("o"),
            key("L", shift: true), key("l"), ["eval": "kilnStudio.watch(2500)"],  // 35: loops in 15…30
            key("k"), settled,  // 37
            ["eval": "kilnStudio.seek(1.2)"],
            ["eval": "kilnStudio.pin('layers[1].cornerRadius')"],
            ["eval": "kilnStudio.setPin('layers[1].cornerRadius', 50)"],
            ["eval": "kilnStudio.pin('layers[1].position[0]')"],
            ["eval": "kilnStudio.setPin('layers[1].position[0]', 140)"],
            ["eval": "kilnStudio.save()"],  // 43: the diff
            ["eval": "kilnStudio.confirmSave()"],  // 44
            ["read": job.path],  // 45
            ["eval": "kilnStudio.undo()"],  // 46
            ["read": job.path],  // 47
            ["signal": "STOP", "pid": pid],
            ["eval": "kilnStudio.offline(true)"],  // 49
            ["signal": "CONT", "pid": pid],
            ["eval": "kilnStudio.offline(false)"],  // 51
            ["signal": "INT", "pid": pid],
            ["eval": "kilnStudio.offline(true)"],  // 53
        ]
        let report = try drive(studio.url, steps)
        XCTAssertEqual(report.results.count, steps.count)
        guard report.results.count == steps.count else { return }
        func transport(_ index: Int) -> [String: Any] { report.results[index] as? [String: Any] ?? [:] }
        func frame(_ index: Int) -> Int? { transport(index)["frame"] as? Int }
        XCTAssertEqual([frame(3), frame(5), frame(7), frame(9)], [37, 7, 59, 0], "arrows, Shift, End, Home")
        XCTAssertEqual(transport(11)["help"] as? Bool, true, "? shows the shortcuts")
        XCTAssertEqual(transport(13)["help"] as? Bool, false, "Esc hides them")
        XCTAssertEqual(transport(15)["playing"] as? Bool, true, "space plays")
        XCTAssertEqual(transport(17)["playing"] as? Bool, false, "space pauses")
        XCTAssertEqual(transport(20)["speed"] as? Int, 2, "L twice plays at 2×")
        XCTAssertEqual(transport(22)["playing"] as? Bool, false, "K pauses")
        let backwards = (transport(26)["seen"] as? [Int] ?? []).reduce(into: [Int]()) {
            if $0.last != $1 { $0.append($1) }
        }
        XCTAssertGreaterThan(backwards.count, 1, "J did not play")
        XCTAssertEqual(backwards, backwards.sorted(by: >), "J did not play backwards: \(backwards)")
        let looped = transport(35)["seen"] as? [Int] ?? []
        XCTAssertTrue(looped.allSatisfy { (15...30).contains($0) }, "left the in/out range: \(looped)")
        XCTAssertTrue(zip(looped, looped.dropFirst()).contains { $0 > $1 }, "never looped: \(looped)")
        XCTAssertEqual(transport(37)["loop"] as? Bool, true)
        XCTAssertEqual([transport(37)["inPoint"] as? Int, transport(37)["outPoint"] as? Int], [15, 30])

        let dialog = transport(43)
        XCTAssertEqual(dialog["shown"] as? Bool, true, "Save… showed no diff: \(dialog)")
        XCTAssertEqual(
            dialog["items"] as? [String],
            ["layers[1].cornerRadius (line 10): 20 → 50", "layers[1].position[0] (line 11): 160 → 140"])
        XCTAssertTrue((dialog["diff"] as? String ?? "").contains("+++ studio.json (saved)"))
        let saved = transport(44)
        XCTAssertEqual(saved["saved"] as? Bool, true, "\(saved)")
        XCTAssertEqual(saved["undo"] as? Bool, true, "Undo is not offered after a save")
        let expected = original.replacingOccurrences(of: "\"cornerRadius\": 20", with: "\"cornerRadius\": 50")
            .replacingOccurrences(of: "\"position\": [160, 90]", with: "\"position\": [140, 90]")
        XCTAssertEqual(report.results[45] as? String, expected, "the save changed more than the two numbers")
        let last = saved["last"] as? [String: Any] ?? [:]
        XCTAssertEqual(last["scale"] as? Int, 1)
        XCTAssertEqual(last["frame"] as? Int, 36)
        XCTAssertEqual(
            last["hash"] as? String, try previewHash(expected, at: "1.2"), "preview of the saved job")
        XCTAssertEqual(report.results[47] as? String, original, "Undo did not put the file back")

        let gone = transport(49)
        XCTAssertTrue((gone["banner"] as? String ?? "").contains("not answering"), "\(gone)")
        XCTAssertEqual(transport(51)["banner"] as? String, "", "the banner stayed once the server was back")
        XCTAssertTrue((transport(53)["banner"] as? String ?? "").contains("not answering"))
        XCTAssertEqual(
            report.errors.filter { !$0.contains("Failed to load resource") && !$0.contains("ERR_") }, [])
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
