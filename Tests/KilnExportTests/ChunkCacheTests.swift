import Foundation
import KilnExport
import KilnMedia
import KilnTestSupport
import XCTest

@testable import KilnExport

/// The chunk cache's store: entries round-trip, and a truncated, bit-flipped or foreign entry is
/// detected, removed and reported missing; a cache that cannot be written degrades to a warning.
final class ChunkCacheTests: ScratchDirectoryTestCase {
    var cache: ChunkCache { ChunkCache(folder: directory.appendingPathComponent("chunks")) }

    func key(_ seed: UInt8) -> ChunkKey {
        let frames = (0..<4).map { FrameDigest(bytes: [UInt8](repeating: seed &+ UInt8($0), count: 32)) }
        return ChunkCache.key(
            frames: frames,
            settings: VideoSettings(
                width: 64, height: 36, frameRateNumerator: 30, frameRateDenominator: 1, crf: 20,
                preset: "veryfast", gop: 30, codec: .h264))
    }

    func entryURL(_ key: ChunkKey) -> URL {
        cache.folder.appendingPathComponent(String(key.description.prefix(2)))
            .appendingPathComponent(key.description)
    }

    let payload = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    func testAnEntryRoundTripsAndCounts() {
        XCTAssertNil(cache.payload(for: key(1)))
        XCTAssertNil(cache.store(payload, for: key(1)))
        XCTAssertEqual(cache.payload(for: key(1)), payload)
        XCTAssertNil(cache.payload(for: key(2)))
        XCTAssertEqual(cache.stats().entries, 1)
        XCTAssertEqual(cache.stats().bytes, payload.count + ChunkCache.headerSize)
        XCTAssertEqual(cache.clear(), 1)
        XCTAssertNil(cache.payload(for: key(1)))
    }

    func testKeysDependOnEveryFrameAndTheEncoderSettings() {
        let frames = (0..<3).map { FrameDigest(bytes: [UInt8](repeating: UInt8($0), count: 32)) }
        var settings = VideoSettings(
            width: 64, height: 36, frameRateNumerator: 30, frameRateDenominator: 1, crf: 20,
            preset: "veryfast",
            gop: 30, codec: .h264)
        let base = ChunkCache.key(frames: frames, settings: settings)
        XCTAssertEqual(base, ChunkCache.key(frames: frames, settings: settings))
        XCTAssertNotEqual(base, ChunkCache.key(frames: Array(frames.reversed()), settings: settings))
        XCTAssertNotEqual(base, ChunkCache.key(frames: Array(frames.prefix(2)), settings: settings))
        settings.crf = 21
        XCTAssertNotEqual(base, ChunkCache.key(frames: frames, settings: settings))
    }

    func assertDiscarded(_ damage: (inout [UInt8]) -> Void, _ what: String) throws {
        let key = key(3)
        XCTAssertNil(cache.store(payload, for: key))
        var bytes = try [UInt8](Data(contentsOf: entryURL(key)))
        damage(&bytes)
        try Data(bytes).write(to: entryURL(key))
        var messages: [String] = []
        XCTAssertNil(cache.payload(for: key) { messages.append($0) }, what)
        XCTAssertEqual(messages.count, 1, what)
        XCTAssertFalse(FileManager.default.fileExists(atPath: entryURL(key).path), "\(what): left in place")
        // Stored again, it is found again.
        XCTAssertNil(cache.store(payload, for: key))
        XCTAssertEqual(cache.payload(for: key), payload, what)
    }

    func testATruncatedEntryIsDiscarded() throws {
        try assertDiscarded({ $0.removeLast(100) }, "truncated")
        try assertDiscarded({ $0 = Array($0.prefix(10)) }, "cut inside its header")
    }

    func testABitFlippedEntryIsDiscarded() throws {
        try assertDiscarded({ $0[$0.count - 1234] ^= 0x10 }, "a payload bit")
        try assertDiscarded({ $0[ChunkCache.magic.count + 3] ^= 1 }, "a length bit")
    }

    func testAnotherKeysEntryInItsPlaceIsDiscarded() throws {
        let other = key(9)
        XCTAssertNil(cache.store(Array(payload.reversed()), for: other))
        let foreign = try [UInt8](Data(contentsOf: entryURL(other)))
        try assertDiscarded({ $0 = foreign }, "another key's entry")
    }

    func testConcurrentWritersOfOneKeyBothSucceed() {
        let key = key(4), cache = cache, payload = payload
        let results = (0..<8).map { _ in Box() }
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            results[i].message = cache.store(payload, for: key)
        }
        XCTAssertTrue(results.allSatisfy { $0.message == nil })
        XCTAssertEqual(cache.payload(for: key), payload)
        XCTAssertEqual(cache.stats().entries, 1, "temp files left behind")
    }

    func testAReadOnlyCacheDegradesToAWarning() throws {
        try FileManager.default.createDirectory(at: cache.folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: cache.folder.path)
        defer {
            try? FileManager.default.setAttributes(
                [.posixPermissions: 0o755], ofItemAtPath: cache.folder.path)
        }
        // Root ignores permission bits: the check means something only for other users.
        guard getuid() != 0 else { throw XCTSkip("permission bits do not bind root") }
        let warning = cache.store(payload, for: key(5))
        XCTAssertNotNil(warning)
        XCTAssertNil(cache.payload(for: key(5)))
    }

    func testAnUnwritableCacheFolderDegradesToAWarning() throws {
        // A file where the cache's folder should be: no entry can be written, whoever runs.
        let blocked = ChunkCache(folder: directory.appendingPathComponent("file"))
        try Data("not a folder".utf8).write(to: blocked.folder)
        XCTAssertNotNil(blocked.store(payload, for: key(6)))
        XCTAssertNil(blocked.payload(for: key(6)))
    }

    func testPruningRemovesTheLeastRecentlyUsedFirst() throws {
        for seed in UInt8(10)..<14 {
            XCTAssertNil(cache.store(payload, for: key(seed)))
            // Older uses first: modification times a minute apart.
            let used = Date(timeIntervalSinceNow: -Double(14 - seed) * 60)
            try FileManager.default.setAttributes(
                [.modificationDate: used], ofItemAtPath: entryURL(key(seed)).path)
        }
        // Reading the oldest makes it the most recent.
        XCTAssertNotNil(cache.payload(for: key(10)))
        let entry = payload.count + ChunkCache.headerSize
        XCTAssertEqual(cache.prune(toAtMost: 2 * entry), 2)
        XCTAssertNotNil(cache.payload(for: key(10)))
        XCTAssertNil(cache.payload(for: key(11)))
        XCTAssertNil(cache.payload(for: key(12)))
        XCTAssertNotNil(cache.payload(for: key(13)))
    }
}

private final class Box: @unchecked Sendable {
    var message: String?
}
