import Foundation
import KilnMedia
import XCTest

/// `kiln studio`'s Save and Undo over HTTP: a diff first, then only the tuned numbers' text is
/// replaced in the job file, atomically; a file changed on disk, a job outside the asset roots,
/// values that would read outside them and requests from anywhere but the page are refused.
final class StudioSaveTests: TemporaryDirectoryTestCase {
    var job: URL { directory.appendingPathComponent("studio.json") }
    let pins = "pin.layers%5B1%5D.cornerRadius=50&pin.layers%5B1%5D.position%5B0%5D=140"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Data(StudioFixture.job().utf8).write(to: job)
    }

    func post(_ studio: StudioClient, _ target: String, headers: [String: String]? = nil) throws
        -> StudioClient.Reply
    {
        try studio.get(
            target, method: "POST", headers: headers ?? ["X-Kiln-Token": studio.token, "Content-Length": "0"])
    }

    func version(_ studio: StudioClient) throws -> Int {
        try studio.get("/job").json["version"] as? Int ?? -1
    }

    func waitForVersion(after version: Int, _ studio: StudioClient) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try self.version(studio) > version { return }
            usleep(100_000)
        }
        XCTFail("the studio did not reload the job")
    }

    func testSaveShowsTheDiffThenReplacesOnlyTheTunedNumbersAndUndoPutsThemBack() throws {
        let original = try Data(contentsOf: job)
        let studio = try StudioClient.start([job.path], cwd: directory)
        defer { _ = studio.stop() }
        let tuned = try studio.get("/frame?t=1.2&\(pins)")
        XCTAssertEqual(tuned.status, 200)
        let shown = try version(studio)

        let preview = try post(studio, "/save?version=\(shown)&\(pins)")
        XCTAssertEqual(preview.status, 200, preview.text)
        XCTAssertEqual(preview.json["saved"] as? Bool, false)
        let changes = preview.json["changes"] as? [[String: Any]] ?? []
        XCTAssertEqual(
            changes.map { $0["path"] as? String }, ["layers[1].cornerRadius", "layers[1].position[0]"])
        XCTAssertEqual(changes.map { "\($0["old"] ?? "") → \($0["new"] ?? "")" }, ["20 → 50", "160 → 140"])
        let diff = preview.json["diff"] as? String ?? ""
        XCTAssertTrue(diff.contains("+++ studio.json (saved)"), diff)
        XCTAssertEqual(try Data(contentsOf: job), original, "showing the diff wrote the file")

        let saved = try post(studio, "/save?version=\(shown)&confirm=1&\(pins)")
        XCTAssertEqual(saved.status, 200, saved.text)
        XCTAssertEqual(saved.json["saved"] as? Bool, true)
        let expected = StudioFixture.job()
            .replacingOccurrences(of: "\"cornerRadius\": 20", with: "\"cornerRadius\": 50")
            .replacingOccurrences(of: "\"position\": [160, 90]", with: "\"position\": [140, 90]")
        XCTAssertEqual(String(decoding: try Data(contentsOf: job), as: UTF8.self), expected)
        XCTAssertGreaterThan(try version(studio), shown, "the save did not reload the job")
        // The saved job, without any pins, is the frame the page showed.
        let out = directory.appendingPathComponent("saved.png")
        let result = try KilnProcess.run(["preview", job.path, "--at", "1.2", "-o", out.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(Array(try Data(contentsOf: out)), tuned.body)
        XCTAssertEqual(try studio.get("/frame?t=1.2").body, tuned.body)
        XCTAssertEqual(try studio.get("/job").json["undoable"] as? Int, 1)
        // No temp file left beside the job.
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") },
            [])

        let undone = try post(studio, "/undo")
        XCTAssertEqual(undone.status, 200, undone.text)
        XCTAssertEqual(try Data(contentsOf: job), original)
        XCTAssertEqual(try post(studio, "/undo").status, 422, "a second undo with one save")
        // Saving what the file holds writes nothing.
        let nothing = try post(studio, "/save?version=\(try version(studio))&confirm=1")
        XCTAssertEqual(nothing.json["saved"] as? Bool, false, nothing.text)
    }

    func testASaveOntoAFileChangedOnDiskIsRefused() throws {
        let studio = try StudioClient.start([job.path], cwd: directory)
        defer { _ = studio.stop() }
        let shown = try version(studio)
        // An editor saves meanwhile; the studio has not noticed it yet, or has.
        let edited = StudioFixture.job(background: "#203040")
        try Data(edited.utf8).write(to: job)
        let refused = try post(studio, "/save?version=\(shown)&confirm=1&\(pins)")
        XCTAssertEqual(refused.status, 409, refused.text)
        XCTAssertTrue(
            (refused.json["problem"] as? String ?? "").contains("changed"), refused.text)
        XCTAssertEqual(String(decoding: try Data(contentsOf: job), as: UTF8.self), edited)

        // After a save, an edit on disk makes Undo refuse rather than lose it.
        try waitForVersion(after: shown, studio)
        let saved = try post(studio, "/save?version=\(try version(studio))&confirm=1&\(pins)")
        XCTAssertEqual(saved.status, 200, saved.text)
        let later = edited.replacingOccurrences(of: "\"duration\": 2", with: "\"duration\": 3")
        try Data(later.utf8).write(to: job)
        let undo = try post(studio, "/undo")
        XCTAssertEqual(undo.status, 409, undo.text)
        XCTAssertEqual(String(decoding: try Data(contentsOf: job), as: UTF8.self), later)
    }

    func testOnlyAPostFromTheStudiosOwnPageSaves() throws {
        let original = try Data(contentsOf: job)
        let studio = try StudioClient.start([job.path], cwd: directory)
        defer { _ = studio.stop() }
        let target = "/save?version=\(try version(studio))&confirm=1&\(pins)"
        XCTAssertEqual(try studio.get(target).status, 405, "a GET (a link, an image) must not save")
        XCTAssertEqual(try post(studio, target, headers: ["Content-Length": "0"]).status, 403)
        XCTAssertEqual(
            try post(
                studio, target,
                headers: [
                    "X-Kiln-Token": studio.token, "Origin": "http://evil.example", "Content-Length": "0",
                ]
            ).status, 403)
        XCTAssertEqual(
            try post(
                studio, target,
                headers: [
                    "X-Kiln-Token": studio.token, "Sec-Fetch-Site": "cross-site", "Content-Length": "0",
                ]
            ).status, 403)
        XCTAssertEqual(try Data(contentsOf: job), original)
        XCTAssertEqual(try post(studio, "/undo", headers: ["Content-Length": "0"]).status, 403)
        XCTAssertEqual(try studio.get("/undo").status, 405)
    }

    func testSaveInputsAreBounded() throws {
        let original = try Data(contentsOf: job)
        let studio = try StudioClient.start([job.path], cwd: directory)
        defer { _ = studio.stop() }
        let shown = try version(studio)
        let many = (0..<17).map { "pin.p\($0)=1" }.joined(separator: "&")
        for bad in [
            "/save?\(pins)", "/save?version=x&\(pins)", "/save?version=\(shown)&confirm=1&\(many)",
            "/save?version=\(shown)&confirm=1&pin.layers%5B1%5D.cornerRadius=nan",
            "/save?version=\(shown)&confirm=1&var.size=" + String(repeating: "9", count: 5000),
        ] {
            XCTAssertEqual(try post(studio, bad).status, 400, bad)
        }
        // Out of the variable's declared range (50…400): the saved job would not load.
        let range = try post(studio, "/save?version=\(shown)&confirm=1&var.size=1000")
        XCTAssertEqual(range.status, 422, range.text)
        XCTAssertTrue((range.json["problem"] as? String ?? "").contains("would not load"), range.text)
        XCTAssertEqual(try Data(contentsOf: job), original)
    }

    /// A save writes only where the studio may read: not a job outside the asset roots, and not
    /// values naming a file outside them (answered like a missing file).
    func testASaveIsConfinedToTheAssetRoots() throws {
        let images = directory.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let pixels = [UInt8](repeating: 200, count: 8 * 8 * 4)
        try Data(
            pixels.withUnsafeBufferPointer {
                try PNGCodec.encode(rgba: $0.baseAddress!, width: 8, height: 8, stride: 32)
            }
        ).write(to: images.appendingPathComponent("dot.png"))
        let document = """
            {
              "kiln": 1,
              "variables": { "photo": { "type": "path", "default": "images/dot.png" }, "label": "hi" },
              "output": { "path": "out.mp4", "width": 64, "height": 36, "fps": 30, "duration": 1 },
              "layers": [ { "type": "image", "path": { "var": "photo" }, "size": [64, 36], "fit": "fill" } ]
            }
            """
        try Data(document.utf8).write(to: job)
        let outside = try StudioClient.start([job.path, "--asset-root", images.path], cwd: directory)
        let refused = try post(outside, "/save?version=\(try version(outside))&confirm=1&var.label=yo")
        _ = outside.stop()
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertTrue(
            (refused.json["problem"] as? String ?? "").contains("writes only where it may read"), refused.text
        )
        XCTAssertEqual(String(decoding: try Data(contentsOf: job), as: UTF8.self), document)

        let studio = try StudioClient.start([job.path], cwd: directory)
        defer { _ = studio.stop() }
        let secret = "/etc/hostname".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let named = try post(studio, "/save?version=\(try version(studio))&confirm=1&var.photo=\(secret)")
        XCTAssertNotEqual(named.status, 200, named.text)
        XCTAssertEqual(String(decoding: try Data(contentsOf: job), as: UTF8.self), document)
    }

    /// A job opened through a symbolic link is saved into the file the link names, and the link
    /// stays; a link that leads out of the asset roots is not written through.
    func testASaveWritesThroughALinkOnlyInsideTheAssetRoots() throws {
        let sub = directory.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let link = sub.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../studio.json")
        let expected = StudioFixture.job()
            .replacingOccurrences(of: "\"cornerRadius\": 20", with: "\"cornerRadius\": 50")
            .replacingOccurrences(of: "\"position\": [160, 90]", with: "\"position\": [140, 90]")

        let confined = try StudioClient.start([link.path, "--asset-root", sub.path], cwd: directory)
        let refused = try post(confined, "/save?version=\(try version(confined))&confirm=1&\(pins)")
        _ = confined.stop()
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertTrue(
            (refused.json["problem"] as? String ?? "").contains("writes only where it may read"), refused.text
        )
        XCTAssertEqual(String(decoding: try Data(contentsOf: job), as: UTF8.self), StudioFixture.job())

        let studio = try StudioClient.start([link.path, "--asset-root", directory.path], cwd: directory)
        defer { _ = studio.stop() }
        let saved = try post(studio, "/save?version=\(try version(studio))&confirm=1&\(pins)")
        XCTAssertEqual(saved.status, 200, saved.text)
        XCTAssertEqual(String(decoding: try Data(contentsOf: job), as: UTF8.self), expected)
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "../studio.json",
            "the link was replaced")
    }

    /// The terminal says "reloaded" only for an edit that loads; one that does not prints its
    /// errors, a line each, as `render` does.
    func testTheTerminalSaysReloadedOnlyForEditsThatLoad() throws {
        let studio = try StudioClient.start([job.path], cwd: directory)
        var seen = try version(studio)
        try Data("{ \"kiln\": 1, \"output\": ".utf8).write(to: job)
        try waitForVersion(after: seen, studio)
        seen = try version(studio)
        try Data(StudioFixture.job(background: "#203040").utf8).write(to: job)
        try waitForVersion(after: seen, studio)
        XCTAssertEqual(studio.stop(), 130)
        let stderr = String(decoding: studio.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = stderr.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("reloaded") }.count, 1, stderr)
        let error = try XCTUnwrap(
            lines.firstIndex { $0.hasPrefix("kiln: error: ") && $0.contains("studio.json:1:") })
        let reload = try XCTUnwrap(lines.firstIndex { $0.contains("reloaded") })
        XCTAssertLessThan(error, reload, stderr)
        XCTAssertTrue(lines.contains { $0.contains("does not load") }, stderr)
    }
}
