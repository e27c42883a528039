import Foundation
import KilnMedia
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `kiln studio` over HTTP: its frames are `kiln preview`'s pixels for the same values, variables
/// and pins re-render, an edit of the job file reloads, bad input is refused, and a signal stops
/// it leaving nothing behind.
final class StudioCommandTests: TemporaryDirectoryTestCase {
    var job: URL { directory.appendingPathComponent("studio.json") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Data(StudioFixture.job().utf8).write(to: job)
    }

    /// `kiln preview JOB --at T` (with ARGS) as PNG bytes.
    func preview(_ file: URL, at seconds: String, _ args: [String] = []) throws -> [UInt8] {
        let out = directory.appendingPathComponent("preview-\(UUID().uuidString).png")
        let result = try KilnProcess.run(["preview", file.path, "--at", seconds, "-o", out.path] + args)
        XCTAssertEqual(result.status, 0, result.stderr)
        defer { try? FileManager.default.removeItem(at: out) }
        return Array(try Data(contentsOf: out))
    }

    func assertSamePixels(
        _ served: [UInt8], _ expected: [UInt8], file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        let a = try PNGCodec.decode(served), b = try PNGCodec.decode(expected)
        XCTAssertEqual([a.width, a.height], [b.width, b.height], file: file, line: line)
        XCTAssertTrue(
            a.rgba == b.rgba, "the studio's frame is not the preview's pixels", file: file, line: line)
    }

    func testFramesAreThePreviewsPixelsAtEveryScaleAndTime() throws {
        let studio = try StudioClient.start([job.path], cwd: directory)
        defer { _ = studio.stop() }
        for seconds in ["0", "0.5", "1.2", "1.99"] {
            let frame = try studio.get("/frame?t=\(seconds)")
            XCTAssertEqual(frame.status, 200, frame.text)
            try assertSamePixels(frame.body, try preview(job, at: seconds))
        }
        let draft = try studio.get("/frame?t=1.2&scale=0.5")
        try assertSamePixels(draft.body, try preview(job, at: "1.2", ["--scale", "0.5"]))
        let summary = try studio.get("/job").json
        XCTAssertEqual(summary["frames"] as? Int, 60)
        XCTAssertEqual(summary["version"] as? Int, 1)
        let names = (summary["variables"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        XCTAssertEqual(names, ["accent", "size"])
        let page = try studio.get("/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains("kilnStudio"))
    }

    func testVariablesAndPinsRenderAsTheEditedJobWould() throws {
        let studio = try StudioClient.start([job.path], cwd: directory)
        defer { _ = studio.stop() }
        let plain = try studio.get("/frame?t=1").body
        let green = try studio.get("/frame?t=1&var.accent=%2300ff00&var.size=120")
        XCTAssertEqual(green.status, 200, green.text)
        XCTAssertNotEqual(green.body, plain)
        try assertSamePixels(
            green.body, try preview(job, at: "1", ["--set", "accent=#00ff00", "--set", "size=120"]))

        XCTAssertEqual(try studio.get("/value?path=layers%5B1%5D.cornerRadius").json["value"] as? Double, 20)
        let pinned = try studio.get("/frame?t=1&pin.layers%5B1%5D.cornerRadius=50")
        XCTAssertEqual(pinned.status, 200, pinned.text)
        let edited = directory.appendingPathComponent("edited.json")
        try Data(
            StudioFixture.job().replacingOccurrences(of: "\"cornerRadius\": 20", with: "\"cornerRadius\": 50")
                .utf8
        )
        .write(to: edited)
        try assertSamePixels(pinned.body, try preview(edited, at: "1"))

        // Values the job refuses: the message, not a frame.
        let refused = try studio.get("/frame?t=1&var.size=1000")
        XCTAssertEqual(refused.status, 422)
        XCTAssertTrue(refused.text.contains("size"), refused.text)
        XCTAssertEqual(try studio.get("/frame?t=1&pin.layers%5B9%5D.opacity=1").status, 422)
    }

    func testEditingTheJobFileReloadsAndAnInvalidEditKeepsTheLastGoodFrame() throws {
        let studio = try StudioClient.start([job.path], cwd: directory)
        defer { _ = studio.stop() }
        let before = try studio.get("/frame?t=0.5").body
        try Data(StudioFixture.job(background: "#2060a0").utf8).write(to: job, options: .atomic)
        XCTAssertTrue(try waitForVersion(2, studio), "no reload after the edit")
        let after = try studio.get("/frame?t=0.5").body
        XCTAssertNotEqual(after, before)
        try assertSamePixels(after, try preview(job, at: "0.5"))

        try Data("{ \"kiln\": 1, \"output\": ".utf8).write(to: job, options: .atomic)
        XCTAssertTrue(try waitForVersion(3, studio), "no reload after the invalid edit")
        let summary = try studio.get("/job").json
        XCTAssertNotNil(summary["problem"] as? String, "\(summary)")
        let kept = try studio.get("/frame?t=0.5")
        XCTAssertEqual(kept.status, 200)
        XCTAssertEqual(kept.body, after)
    }

    func waitForVersion(_ version: Int, _ studio: StudioClient) throws -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let current = try studio.get("/job").json["version"] as? Int, current >= version {
                return true
            }
            usleep(100_000)
        }
        return false
    }

    func testInputsAreBoundedAndOnlyLoopbackHostsAnswered() throws {
        let studio = try StudioClient.start([job.path], cwd: directory)
        defer { _ = studio.stop() }
        for bad in [
            "/frame?scale=2", "/frame?scale=0.01", "/frame?t=nan", "/frame?t=-1", "/frame?format=gif",
        ] {
            XCTAssertEqual(try studio.get(bad).status, 400, bad)
        }
        // Past the end shows the last frame, as the scrubber's end does.
        XCTAssertEqual(try studio.get("/frame?t=99").body, try studio.get("/frame?t=1.99").body)
        XCTAssertEqual(try studio.get("/job", host: "attacker.example").status, 421)
        XCTAssertEqual(try studio.get("/job", host: "localhost:\(studio.port)").status, 200)
        XCTAssertEqual(try studio.get("/job", method: "POST").status, 405)
        XCTAssertEqual(try studio.get("/nothing").status, 404)
    }

    func testSignalsStopItWithTheirExitCodesLeavingNothingBehind() throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        for (signal, code) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let studio = try StudioClient.start([job.path], cwd: directory)
            XCTAssertEqual(try studio.get("/frame?t=1").status, 200)
            XCTAssertEqual(studio.stop(signal), code)
            XCTAssertThrowsError(try studio.get("/job"), "the port still answers")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), before)
    }

    func testAJobThatDoesNotLoadIsRefusedAtStart() throws {
        try Data("{}".utf8).write(to: job)
        let result = try KilnProcess.run(["studio", job.path, "--port", "0"])
        XCTAssertEqual(result.status, 65, result.stderr)
    }
}
