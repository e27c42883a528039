import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnScene
import KilnTestSupport
import XCTest

/// Still frames rendered once (`VideoExport.reusesStillFrames`): a held title costs one render,
/// and the file is byte-identical to one drawn frame by frame.
final class StillFrameExportTests: ScratchDirectoryTestCase {
    /// 3 s at 30 fps: a title card held for the first 2 s (after a 0.5 s entrance), then a
    /// moving card; the title leaves at 2 s.
    func job(format: String = "h264", path: String = "out.mp4") throws -> Job {
        try LayerRegistry.decode(
            bytes: Array(
                """
                {"kiln": 1,
                 "output": {"path": "\(path)", "format": "\(format)", "width": 160, "height": 90, "fps": 30,
                            "duration": 3\(format == "h264" ? ", \"crf\": 20, \"preset\": \"veryfast\"" : "")},
                 "layers": [
                   {"type": "solid", "color": "#182030"},
                   {"type": "text", "text": "Title", "size": 24, "position": [80, 45], "color": "#f0e0c0",
                    "disappear": 2},
                   {"type": "shape", "shape": "rect", "size": [40, 20], "fill": "#e06040", "appear": 2,
                    "position": {"keyframes": [{"t": 2, "v": [20, 45]}, {"t": 3, "v": [140, 45]}]}}]}
                """.utf8), file: "still-test.json", baseDirectory: directory)
    }

    func testAHeldTitleIsRenderedOnceAndTheBytesAreTheSame() throws {
        let job = try job()
        let reused = try VideoExport(job: job, threads: 2).run()
        let reusedBytes = try Data(contentsOf: reused.output)
        var plain = VideoExport(job: job, output: directory.appendingPathComponent("plain.mp4"), threads: 2)
        plain.reusesStillFrames = false
        let drawn = try plain.run()
        XCTAssertEqual(drawn.stillFramesReused, 0)
        XCTAssertEqual(
            reusedBytes, try Data(contentsOf: drawn.output), "reusing still frames changed the file")
        // Frames 0…59 show the title; its removal (about 0.35 s) and the moving card change
        // every frame after 2 s. All but the first of the held frames are reused.
        let holdFrames = (0..<60).count
        XCTAssertGreaterThanOrEqual(reused.stillFramesReused, holdFrames - 1)
        XCTAssertLessThan(reused.stillFramesReused, 62)
    }

    /// Formats that keep transparency carry the RGBA pictures along.
    func testReusedFramesKeepTheirTransparentPictures() throws {
        let job = try job(format: "prores4444", path: "out.mov")
        let reused = try VideoExport(job: job, threads: 2).run()
        var plain = VideoExport(job: job, output: directory.appendingPathComponent("plain.mov"), threads: 2)
        plain.reusesStillFrames = false
        let drawn = try plain.run()
        XCTAssertGreaterThan(reused.stillFramesReused, 50)
        XCTAssertEqual(try Data(contentsOf: reused.output), try Data(contentsOf: drawn.output))
    }
}
