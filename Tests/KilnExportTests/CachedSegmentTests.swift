import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnTestSupport
import Synchronization
import XCTest

/// Segmented exports with a chunk cache (`SegmentedExport.chunkCache`): a re-export takes every
/// piece whose frames did not change from the cache, the file is byte-identical to a cold
/// export without a cache, and a damaged entry is rendered again.
final class CachedSegmentTests: ScratchDirectoryTestCase {
    /// 3 s in three 1 s pieces: a still backdrop, a caption on screen for the last second only.
    func export(caption: String, output: String, cache: ChunkCache?) throws -> SegmentedExport {
        let url = directory.appendingPathComponent("cached.json")
        try Data(
            """
            {"kiln": 1,
             "output": {"path": "\(output)", "width": 160, "height": 96, "fps": 30,
                        "duration": 3, "crf": 18, "preset": "veryfast", "gop": 30},
             "layers": [
               {"type": "solid", "color": {"keyframes": [{"t": 0, "v": "#202040"}, {"t": 3, "v": "#e0c080"}]}},
               {"type": "text", "text": "\(caption)", "size": 18, "position": [80, 48], "appear": 2}]}
            """.utf8
        ).write(to: url)
        let loaded = try JobFiles.loadFingerprinted(file: url.path)
        var segmented = SegmentedExport(
            export: VideoExport(job: loaded.job, threads: 2), fingerprint: loaded.fingerprint,
            plan: SegmentPlan(frameCount: 90, framesPerSecond: 30, request: .count(3)))
        segmented.chunkCache = cache
        return segmented
    }

    var cache: ChunkCache { ChunkCache(folder: directory.appendingPathComponent("chunks")) }

    func bytes(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    func testAReExportTakesTheUnchangedPiecesFromTheCacheAndWritesTheSameBytes() throws {
        let cold = try export(caption: "First", output: "cold.mp4", cache: nil).run()
        XCTAssertEqual(cold.rendered, 3)
        let first = try export(caption: "First", output: "first.mp4", cache: cache).run()
        XCTAssertEqual(first.rendered, 3)
        XCTAssertEqual(cache.stats().entries, 3)
        XCTAssertEqual(try bytes("first.mp4"), try bytes("cold.mp4"), "the cache changed the file")
        // The caption is only in the last piece: the other two come from the cache.
        let edited = try export(caption: "Second", output: "edited.mp4", cache: cache).run()
        XCTAssertEqual(edited.rendered, 3)
        XCTAssertEqual(cache.stats().entries, 4, "only the last piece is new")
        _ = try export(caption: "Second", output: "edited-cold.mp4", cache: nil).run()
        XCTAssertEqual(try bytes("edited.mp4"), try bytes("edited-cold.mp4"))
        XCTAssertNotEqual(try bytes("edited.mp4"), try bytes("cold.mp4"))
    }

    func testADamagedEntryIsRenderedAgain() throws {
        _ = try export(caption: "First", output: "cold.mp4", cache: nil).run()
        _ = try export(caption: "First", output: "first.mp4", cache: cache).run()
        // Every entry damaged: one truncated, one bit-flipped, one replaced by another's.
        let entries = try FileManager.default.subpathsOfDirectory(atPath: cache.folder.path)
            .filter { $0.count > 40 }.sorted().map { cache.folder.appendingPathComponent($0) }
        XCTAssertEqual(entries.count, 3)
        var a = try [UInt8](Data(contentsOf: entries[0]))
        let foreign = a
        a.removeLast(50)
        try Data(a).write(to: entries[0])
        var b = try [UInt8](Data(contentsOf: entries[1]))
        b[b.count / 2] ^= 4
        try Data(b).write(to: entries[1])
        try Data(foreign).write(to: entries[2])
        let warnings = Mutex<[String]>([])
        var again = try export(caption: "First", output: "again.mp4", cache: cache)
        again.cacheWarning = { message in warnings.withLock { $0.append(message) } }
        _ = try again.run()
        XCTAssertEqual(warnings.withLock { $0.count }, 3)
        XCTAssertEqual(try bytes("again.mp4"), try bytes("cold.mp4"))
        XCTAssertEqual(cache.stats().entries, 3, "the damaged entries were replaced")
    }
}
