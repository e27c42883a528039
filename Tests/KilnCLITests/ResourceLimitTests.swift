import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 20, problem 3 (and the WAV of problem 4): small hostile jobs that asked for gigabytes.
/// Each is refused with exit 65 by a limit that names itself, well under 1 GB of peak memory.
/// The small hostile files are fixtures (Fixtures/Hostile); the large ones are generated here.
final class ResourceLimitTests: TemporaryDirectoryTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Hostile")
    /// The issue's bound for every attempt, with the default limits.
    static let gigabyteKiB = 1024 * 1024

    typealias Measured = MeasuredRun

    /// A fixture copied into the test's directory, beside the files generated for it.
    func fixture(_ name: String) throws -> String {
        let target = directory.appendingPathComponent(name)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(name), to: target)
        return target.path
    }

    func assertRefused(
        _ result: Measured, by limit: String, underKiB bound: Int = gigabyteKiB,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(result.status, 65, result.stderr, file: file, line: line)
        XCTAssertTrue(
            result.stderr.contains("over the limit \(limit) = ")
                && result.stderr.contains("--limit \(limit)=N"),
            result.stderr, file: file, line: line)
        XCTAssertLessThan(result.peakKiB, bound, "peak RSS \(result.peakKiB) KiB", file: file, line: line)
    }

    // 80 000 newlines in a text layer took 5.1 GB (and 20 s) in validate.
    func testTextOfManyNewlinesIsRefusedByItsLength() throws {
        let job = try fixture("text-newlines.json")
        assertRefused(try run(["validate", job]), by: "text-characters", underKiB: 256 * 1024)
        assertRefused(
            try run(["validate", job, "--limit", "text-characters=100000"]), by: "text-lines",
            underKiB: 256 * 1024)
    }

    // With the limits raised, the text is drawn in memory of its ink and time linear in its
    // length: the picture of 80 000 empty lines is not allocated, a 40 000-glyph line's runs are
    // not rebuilt per glyph.
    func testTextLayoutIsLinearInItsLength() throws {
        let raised = [
            "--limit", "text-characters=100000", "--limit", "text-lines=100000", "--limit",
            "text-pixels=1e12",
        ]
        let newlines = try run(["validate", try fixture("text-newlines.json")] + raised)
        XCTAssertEqual(newlines.status, 0, newlines.stderr)
        XCTAssertLessThan(newlines.peakKiB, 256 * 1024)
        let long = try write(
            "long-line.json",
            #"{"kiln":1,"output":{"path":"o.mp4","width":320,"height":180,"fps":30,"duration":1},"layers":[{"type":"text","size":12,"text":""#
                + String(repeating: "a", count: 40_000) + #""}]}"#)
        let line = try run(["validate", long] + raised)
        XCTAssertEqual(line.status, 0, line.stderr)
        XCTAssertLessThan(line.seconds, 5)
        XCTAssertLessThan(line.peakKiB, 256 * 1024)
    }

    // 40 000 combining marks on one letter took 18 s (HarfBuzz's mark attachment is quadratic
    // in a cluster's length).
    func testLongCombiningClusterIsRefused() throws {
        let job = try fixture("text-combining.json")
        assertRefused(try run(["validate", job]), by: "text-characters")
        let raised = try run(["validate", job, "--limit", "text-characters=100000"])
        assertRefused(raised, by: "text-cluster-scalars")
        XCTAssertLessThan(raised.seconds, 5)
    }

    // 100 blurred 10×10 shapes at 1080p took 1.5 GB for one frame (a frame-wide image each).
    func testBlurredLayersAreRefusedBeforeTheirOffscreensAreAllocated() throws {
        let job = try fixture("blurred-shapes.json")
        let output = directory.appendingPathComponent("blurred.mp4").path
        assertRefused(try run(["render", job, "-o", output]), by: "offscreens", underKiB: 512 * 1024)
        assertRefused(
            try run(["render", job, "-o", output, "--limit", "offscreens=1000"]), by: "offscreen-megabytes",
            underKiB: 512 * 1024)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        XCTAssertEqual(try contents().filter { $0.hasSuffix(".mp4") || $0.hasPrefix(".") }, [])
    }

    // 8192×8192 at the default preset grew past 7 GB.
    func testHugeFrameIsRefused() throws {
        let job = try fixture("huge-frame.json")
        let result = try run(["render", job, "-o", directory.appendingPathComponent("huge.mp4").path])
        assertRefused(result, by: "frame-pixels", underKiB: 256 * 1024)
        XCTAssertTrue(result.stderr.contains("8192×8192"), result.stderr)
        let long = try write(
            "long.json",
            #"{"kiln":1,"output":{"path":"o.mp4","width":2560,"height":1440,"fps":30,"duration":86400},"layers":[]}"#
        )
        assertRefused(try run(["validate", long]), by: "pixel-frames", underKiB: 256 * 1024)
    }

    // A 65-byte PNG claiming 16000×16000 took 1 GB before FFmpeg refused its data.
    func testImageIsRefusedFromItsHeaderBeforeDecoding() throws {
        _ = try fixture("huge-claim.png")
        let result = try run(["validate", try fixture("huge-image.json")])
        assertRefused(result, by: "image-pixels", underKiB: 256 * 1024)
        XCTAssertTrue(result.stderr.contains("16000×16000"), result.stderr)
    }

    // 62 MB of numbers in `comment` took 2.6 GB to validate.
    func testJSONOfManyNumbersIsRefusedWhileParsing() throws {
        var text = #"{"kiln":1,"comment":[0"#
        text += String(repeating: ",1", count: 31_000_000)
        text += #"],"output":{"path":"o.mp4","width":320,"height":180,"fps":30,"duration":1},"layers":[]}"#
        let job = try write("numbers.json", text)
        assertRefused(try run(["validate", job]), by: "json-bytes", underKiB: 256 * 1024)
        assertRefused(
            try run(["validate", job, "--limit", "json-bytes=100000000"]), by: "json-values",
            underKiB: 512 * 1024)
    }

    func testDeepNestingIsRefused() throws {
        var layer = ##"{"type":"solid","color":"#000000"}"##
        for _ in 0..<40 { layer = #"{"type":"group","size":[10,10],"layers":["# + layer + "]}" }
        let job = try write(
            "deep.json",
            #"{"kiln":1,"output":{"path":"o.mp4","width":320,"height":180,"fps":30,"duration":1},"layers":["#
                + layer + "]}")
        assertRefused(try run(["validate", job]), by: "nesting")
        XCTAssertEqual(try run(["validate", job, "--limit", "nesting=41"]).status, 0)
        let deepJSON = try write("deep-json.json", String(repeating: "[", count: 100_000))
        let result = try run(["validate", deepJSON])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("json-depth"), result.stderr)
    }

    /// Raising a depth limit used to let deep input overflow the stack (SIGSEGV, exit 139): the
    /// limits now stop at what the stack holds, and input at those ceilings is handled whole,
    /// parsed, decoded and rendered on the render threads.
    func testDepthLimitsCannotBeRaisedPastWhatTheStackHolds() throws {
        let deepJSON = try write("deep-json.json", String(repeating: "[", count: 100_000))
        for limit in ["json-depth=100000", "nesting=100000"] {
            let raised = try run(["validate", deepJSON, "--limit", limit])
            XCTAssertEqual(raised.status, 64, raised.stderr)
            XCTAssertTrue(raised.stderr.contains("can be raised to at most"), raised.stderr)
        }
        let atCeiling = try run(["validate", deepJSON, "--limit", "json-depth=1024"])
        XCTAssertEqual(atCeiling.status, 65, atCeiling.stderr)
        XCTAssertTrue(atCeiling.stderr.contains("json-depth"), atCeiling.stderr)
        // 1,000 levels of arrays inside a layer's value: parsed and refused as a value, no crash.
        let nestedValue = try write(
            "nested-value.json",
            #"{"kiln":1,"output":{"path":"o.mp4","width":64,"height":36,"fps":10,"duration":0.2},"layers":[{"type":"solid","color":"#
                + String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000) + "}]}")
        let value = try run(["validate", nestedValue, "--limit", "json-depth=1024"])
        XCTAssertEqual(value.status, 65, value.stderr)
        // 127 groups inside one another render under nesting=128.
        var layer = ##"{"type":"solid","color":"#3366cc"}"##
        for _ in 0..<127 { layer = #"{"type":"group","layers":["# + layer + "]}" }
        let deepGroups = try write(
            "deep-groups.json",
            #"{"kiln":1,"output":{"path":"groups.mp4","width":64,"height":36,"fps":10,"duration":0.2},"layers":["#
                + layer + "]}")
        let rendered = try run(["render", deepGroups, "--limit", "nesting=128", "--limit", "json-depth=1024"])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
    }

    /// A 16-bit mono 48 kHz WAV of `seconds` of silence, with `padding` zero bytes between its
    /// fmt and data chunks.
    func writeWAV(_ name: String, seconds: Double, padding: Int) throws -> String {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let dataSize = Int(seconds * 48_000) * 2
        let format = le16(1) + le16(1) + le32(48_000) + le32(96_000) + le16(2) + le16(16)
        var body = Array("WAVE".utf8) + Array("fmt ".utf8) + le32(format.count) + format
        body += [UInt8](repeating: 0, count: padding)
        body += Array("data".utf8) + le32(dataSize) + [UInt8](repeating: 0, count: dataSize)
        let url = directory.appendingPathComponent(name)
        try Data(Array("RIFF".utf8) + le32(body.count) + body).write(to: url)
        return url.path
    }

    // A WAV padded with 30 MB of zeros validated at ~8 MB/s (FFmpeg crawls the padding eight
    // bytes at a time, deaf to SIGINT): its chunks are now read in Swift, a bounded walk.
    func testPaddedWAVIsRefusedFromItsHeader() throws {
        _ = try writeWAV("padded.wav", seconds: 1, padding: 30 * 1024 * 1024)
        let result = try run(["validate", try fixture("padded-audio.json")])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("no RIFF chunk"), result.stderr)
        XCTAssertLessThan(result.seconds, 1.5)
    }

    func testSoundtrackDurationIsCheckedFromTheHeader() throws {
        let job = try fixture("padded-audio.json")
        _ = try writeWAV("padded.wav", seconds: 2, padding: 0)
        XCTAssertEqual(try run(["validate", job]).status, 0)
        assertRefused(try run(["validate", job, "--limit", "audio-seconds=1.5"]), by: "audio-seconds")
    }

    func testLongTranscriptIsRefused() throws {
        let job = try fixture("long-transcript.json")
        var srt = ""
        for cue in 0..<20_000 {
            let (s, e) = (cue, cue + 1)
            srt +=
                "\(cue + 1)\n\(stamp(s)) --> \(stamp(e))\nline \(cue)\n\n"
        }
        _ = try write("long.srt", srt)
        assertRefused(try run(["validate", job]), by: "transcript-entries")
        assertRefused(try run(["validate", job, "--limit", "transcript-bytes=1000"]), by: "transcript-bytes")
    }

    private func stamp(_ seconds: Int) -> String {
        String(format: "%02d:%02d:%02d,000", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    func testLimitsAreListedAndFlagsChecked() throws {
        let listed = try KilnProcess.run(["limits", "--json", "--limit", "frames=1000"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let entries = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: entries.map { ($0["name"] as? String ?? "", $0) })
        for name in [
            "frame-pixels", "offscreen-megabytes", "text-characters", "json-values", "audio-seconds",
        ] {
            XCTAssertNotNil(byName[name], name)
        }
        XCTAssertEqual(byName["frames"]?["value"] as? Double, 1000)
        XCTAssertEqual(byName["frames"]?["default"] as? Double, 2_592_000)

        let unknown = try KilnProcess.run(["validate", "jobs/text.json", "--limit", "frame-pixel=10"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("did you mean 'frame-pixels'"), unknown.stderr)
        let bad = try KilnProcess.run(["validate", "jobs/text.json", "--limit", "frames=-3"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("positive whole number"), bad.stderr)
        let low = try KilnProcess.run(["validate", "jobs/text.json", "--limit", "frames=10"])
        XCTAssertEqual(low.status, 65)
        XCTAssertTrue(low.stderr.contains("over the limit frames = 10"), low.stderr)
    }
}
