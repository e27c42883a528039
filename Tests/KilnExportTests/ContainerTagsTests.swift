import Foundation
import KilnExport
import KilnModel
import KilnTestSupport
import XCTest

@testable import KilnMedia

/// What every video Kiln writes says about itself (`ContainerTags`), decoded back through
/// libavformat: the job's name, Kiln's version, the frame count, a digest of the frames and the
/// render time; and that it costs no determinism (the render time is the only difference
/// between renders, and the frames digest is the same whatever the threads or segmenting).
final class ContainerTagsTests: ScratchDirectoryTestCase {
    func job(format: String = "h264", extension ext: String = "mp4") throws -> Job {
        let url = directory.appendingPathComponent("tagged.json")
        let encoder =
            switch format {
            case "h264": #", "preset": "ultrafast", "gop": 4"#
            case "vp9": #", "preset": "realtime""#
            default: ""
            }
        try Data(
            """
            {"kiln": 1,
             "output": {"path": "tagged.\(ext)", "format": "\(format)", "width": 96, "height": 64, "fps": 30,
                        "duration": {"frames": 12}\(encoder)},
             "layers": [
               {"type": "solid", "color": {"keyframes": [{"t": 0, "v": "#202040"}, {"t": 0.4, "v": "#e0c080"}]}}]}
            """.utf8
        ).write(to: url)
        return try JobFiles.loadFingerprinted(file: url.path).job
    }

    /// The digest the file must carry: the frame-hash log's lines summed.
    func expectedDigest(_ log: String) throws -> String {
        var digest = FramesDigest()
        for (frame, hash) in try FrameHashLog.read(path: log) { digest.add(frame: frame, digest: hash) }
        return digest.hex
    }

    func testEveryVideoContainerCarriesItsTagsDecodedBack() throws {
        for (format, ext) in [("h264", "mp4"), ("vp9", "webm"), ("prores4444", "mov")] {
            let job = try job(format: format, extension: ext)
            let output = directory.appendingPathComponent("tagged-\(format).\(ext)")
            let log = directory.appendingPathComponent("\(format).hashes").path
            _ = try VideoExport(
                job: job, output: output, threads: 2, frameHashes: try FrameHashLog(path: log)
            ).run()
            let tags = try ContainerTags.read(path: output.path)
            XCTAssertEqual(tags[ContainerTags.job], "tagged.json", "\(format): \(tags)")
            XCTAssertEqual(tags[ContainerTags.version], KilnVersion.string, format)
            XCTAssertEqual(tags[ContainerTags.frames], "12", format)
            XCTAssertEqual(tags[ContainerTags.framesDigest], try expectedDigest(log), format)
            // The render time is an attribute of the file, not in its bytes.
            XCTAssertNil(tags["kiln_render_seconds"], format)
            if UserAttributes.work(in: directory) {
                let seconds = try XCTUnwrap(RenderTimeAttribute.read(path: output.path), format)
                XCTAssertGreaterThan(seconds, 0, format)
                XCTAssertLessThan(seconds, 120, format)
            }
            XCTAssertFalse(
                try Data(contentsOf: output).range(of: Data("@kiln-late".utf8)) != nil,
                "\(format): a placeholder is left")
            // The tags do not cost playback: every frame still decodes.
            let info = try VideoDecodeBack.decode(path: output.path) { _ in }
            XCTAssertEqual(info.decodedFrameCount, 12, format)
        }
    }

    /// Two renders with different thread counts are the same bytes, and a split render's joined
    /// file carries the single render's frames digest (and its pieces' render times added up).
    func testTagsKeepRendersIdenticalAcrossThreadsAndSegments() throws {
        let job = try job()
        var files: [Data] = []
        var digests: [String?] = []
        for threads in [1, 3] {
            let output = directory.appendingPathComponent("t\(threads).mp4")
            _ = try VideoExport(job: job, output: output, threads: threads).run()
            files.append(try Data(contentsOf: output))
            digests.append(try ContainerTags.read(path: output.path)[ContainerTags.framesDigest])
        }
        XCTAssertEqual(files[0], files[1], "1 and 3 threads: identical bytes")
        let fingerprint = try JobFiles.loadFingerprinted(
            file: directory.appendingPathComponent("tagged.json").path)
        let split = SegmentedExport(
            export: VideoExport(job: job, output: directory.appendingPathComponent("split.mp4"), threads: 2),
            fingerprint: fingerprint.fingerprint,
            plan: SegmentPlan(frameCount: 12, framesPerSecond: 30, request: .count(3)))
        let summary = try split.run()
        let joined = try ContainerTags.read(path: summary.output.path)
        XCTAssertEqual(
            joined[ContainerTags.framesDigest], digests[0], "the pieces' digests add up to the whole's")
        XCTAssertEqual(joined[ContainerTags.job], "tagged.json")
        XCTAssertEqual(joined[ContainerTags.frames], "12")
        if UserAttributes.work(in: directory) {
            XCTAssertNotNil(RenderTimeAttribute.read(path: summary.output.path), "the pieces' times added up")
        }
    }

    /// Placeholders are found wherever they are in a large file: in the middle across a chunk
    /// boundary (read only when the ends do not hold them) and at the very end.
    func testPlaceholdersAreFilledAnywhereInALargeFile() throws {
        let tags = ContainerTags(late: [.init("kiln_a", width: 16), .init("kiln_b", width: 20)])
        var bytes = [UInt8](repeating: 0x41, count: 11 << 20)
        let first = Array(ContainerTags.placeholder(0, width: 16).utf8)
        let second = Array(ContainerTags.placeholder(1, width: 20).utf8)
        bytes.replaceSubrange((6 << 20) - 5..<(6 << 20) + 11, with: first)
        bytes.replaceSubrange(bytes.count - 20..<bytes.count, with: second)
        let url = directory.appendingPathComponent("large.bin")
        try Data(bytes).write(to: url)
        try tags.fill(["kiln_a": "aaaaaaaaaaaaaaaa", "kiln_b": "bbbbbbbbbbbbbbbbbbbb"], in: url.path)
        let filled = try Data(contentsOf: url)
        XCTAssertEqual(filled.count, bytes.count)
        XCTAssertEqual(filled[((6 << 20) - 5)..<((6 << 20) + 11)], Data(repeating: 0x61, count: 16))
        XCTAssertEqual(filled.suffix(20), Data(repeating: 0x62, count: 20))
        XCTAssertNil(filled.range(of: Data("@kiln-late".utf8)))
    }

    /// A late value of another width than its placeholder's is refused: it would overwrite
    /// the bytes beside the placeholder, or leave part of it in the file.
    func testAValueOfTheWrongWidthIsRefused() throws {
        let job = try job()
        let output = directory.appendingPathComponent("wrong.mp4")
        let writer = try VideoFileWriter(
            path: output.path, settings: VideoExport(job: job).videoSettings,
            tags: ContainerTags(late: [.init("kiln_x", width: 16)]))
        writer.lateTagValues = ["kiln_x": "short"]
        XCTAssertThrowsError(try writer.finish()) { error in
            XCTAssertTrue("\(error)".contains("kiln_x must be 16 bytes"), "\(error)")
        }
    }
}
