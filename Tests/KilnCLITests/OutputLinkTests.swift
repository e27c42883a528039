import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 41, item 1: an output never follows a symbolic link at its final name, however the path
/// is spelled. Foundation's `standardizedFileURL` resolves every link of a path that holds `..`,
/// the last one included, so `../out/render.mp4` used to replace the link's target (and the queue
/// stored the target).
final class OutputLinkTests: QueueTestCase {
    static let precious = "precious: not a video"

    var victim: URL { directory.appendingPathComponent("victim.mp4") }
    var jobs: URL { directory.appendingPathComponent("jobs") }

    /// jobs/ holds the job files, a folder sub/ and the link e.mp4; dir/e.mp4 and out/render.mp4
    /// beside it are links too; all point at victim.mp4.
    override func setUpWithError() throws {
        try super.setUpWithError()
        try Self.precious.write(to: victim, atomically: false, encoding: .utf8)
        for folder in ["jobs/sub", "dir", "out"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for link in ["jobs/e.mp4", "dir/e.mp4", "out/render.mp4"] {
            XCTAssertEqual(symlink(victim.path, directory.appendingPathComponent(link).path), 0)
        }
    }

    /// Every spelling of the issue that reaches a link: relative through `..`, through a sibling
    /// folder, absolute with `..`, and the ones already refused before.
    var spellings: [String] {
        [
            "../out/render.mp4", "sub/../e.mp4", "../dir/e.mp4", jobs.path + "/sub/../e.mp4",
            "e.mp4", "./e.mp4", jobs.path + "/e.mp4",
        ]
    }

    func job(_ name: String, output: String, preset: Bool = true) throws -> String {
        let text = ##"""
            {"kiln": 1, "output": {"path": \##(Self.quoted(output)), "width": 32, "height": 32, "fps": 10,
                                   "duration": {"frames": 2}\##(preset ? #", "preset": "ultrafast""# : "")},
             "layers": [{"type": "solid", "color": "#123456"}]}
            """##
        let url = jobs.appendingPathComponent("\(name).json")
        try text.write(to: url, atomically: false, encoding: .utf8)
        return url.path
    }

    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self)
            .dropFirst().dropLast().description
    }

    func assertVictimUntouched(_ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            try? String(contentsOf: victim, encoding: .utf8), Self.precious, "\(what) wrote through the link",
            file: file, line: line)
        var info = stat()
        XCTAssertEqual(lstat(directory.appendingPathComponent("out/render.mp4").path, &info), 0)
        XCTAssertEqual(
            info.st_mode & S_IFMT, S_IFLNK, "\(what): the link itself stays", file: file, line: line)
    }

    func testRenderRefusesALinkAtTheOutputNameWhateverTheSpelling() throws {
        for (index, spelling) in spellings.enumerated() {
            let file = try job("render\(index)", output: spelling)
            let result = try kiln(["render", file])
            XCTAssertEqual(result.status, 65, "\(spelling): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("is a symbolic link"), "\(spelling): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("output.path"), "\(spelling): \(result.stderr)")
            XCTAssertFalse(
                result.stderr.contains(victim.path), "\(spelling) resolved to the target: \(result.stderr)")
            assertVictimUntouched("render \(spelling)")
        }
        XCTAssertEqual(try kiln(["validate", try job("validate", output: "../out/render.mp4")]).status, 65)
    }

    /// `-o` and the other writers: exit 73 (EX_CANTCREAT), nothing written through the link.
    func testEveryWriterRefusesALinkGivenWithDotDot() throws {
        let file = try job("plain", output: "plain.mp4")
        for spelling in ["../out/render.mp4", "sub/../e.mp4", "../dir/e.mp4", jobs.path + "/sub/../e.mp4"] {
            let rendered = try KilnProcess.run(["render", file, "-o", spelling], cwd: jobs)
            XCTAssertEqual(rendered.status, 73, "\(spelling): \(rendered.stderr)")
            XCTAssertTrue(rendered.stderr.contains("symbolic link"), rendered.stderr)
            assertVictimUntouched("render -o \(spelling)")
        }
        for link in ["out/still.png", "out/sheet.png", "out/sweep.png", "out/page.html"] {
            XCTAssertEqual(symlink(victim.path, directory.appendingPathComponent(link).path), 0)
        }
        let commands: [[String]] = [
            ["preview", file, "--frame", "0", "-o", "../out/still.png"],
            ["sheet", file, "-o", "sub/../../out/sheet.png"],
            [
                "sweep", file, "--vary", "layers[0].color=#ff0000,#00ff00", "--at", "0", "-o",
                "../dir/../out/sweep.png",
            ],
        ]
        for command in commands {
            let result = try KilnProcess.run(command, cwd: jobs)
            XCTAssertEqual(result.status, 73, "\(command): \(result.stderr)")
            assertVictimUntouched(command.joined(separator: " "))
        }
        let rendered = try kiln(["render", file])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let review = try KilnProcess.run(["review", "plain.mp4", "-o", "sub/../../out/page.html"], cwd: jobs)
        XCTAssertEqual(review.status, 73, review.stderr)
        assertVictimUntouched("review -o")
    }

    /// A PNG sequence's folder that is a link to a folder is refused, and its frames never land there.
    func testAPNGSequenceFolderLinkIsRefused() throws {
        let elsewhere = directory.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        XCTAssertEqual(symlink(elsewhere.path, directory.appendingPathComponent("out/frames").path), 0)
        let file = try job("frames", output: "sub/../../out/frames/", preset: false)
        let result = try kiln(["render", file])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("symbolic link"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
    }

    func testEnqueueRefusesEverySpellingAndStoresTheResolvedFolder() throws {
        for (index, spelling) in spellings.enumerated() {
            let file = try job("queued\(index)", output: spelling)
            let result = try kiln([
                "enqueue", file, "--output-root", directory.path, "--asset-root", directory.path,
            ])
            XCTAssertEqual(result.status, 65, "\(spelling): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("symbolic link"), "\(spelling): \(result.stderr)")
        }
        XCTAssertEqual(try status().count, 0, "nothing queued")
        // A free name reached through `..`: queued as the real folder and the name as written.
        let file = try job("fine", output: "sub/../../out/fine.mp4")
        let queued = try kiln(["enqueue", file, "--output-root", directory.path])
        XCTAssertEqual(queued.status, 0, queued.stderr)
        let real = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path
        XCTAssertEqual(try status().first?["output"] as? String, real + "/out/fine.mp4")
    }

    /// A link planted at the name after the job was queued: the worker refuses it when it loads
    /// the job (discarded, naming the link) and writes nothing through it.
    func testAWorkerNeverWritesThroughALinkPlantedAfterEnqueue() throws {
        let file = try job("late", output: "../out/late.mp4")
        let queued = try kiln(["enqueue", file, "--output-root", directory.path])
        XCTAssertEqual(queued.status, 0, queued.stderr)
        let late = directory.appendingPathComponent("out/late.mp4")
        XCTAssertEqual(symlink(victim.path, late.path), 0)
        let worked = try kiln(["worker", "--once", "--output-root", directory.path])
        XCTAssertEqual(worked.status, 0, worked.stderr)
        let job = try XCTUnwrap(try status().first)
        XCTAssertEqual(job["state"] as? String, "discarded", "\(job)")
        XCTAssertTrue((job["error"] as? String ?? "").contains("symbolic link"), "\(job)")
        assertVictimUntouched("worker")
    }
}
