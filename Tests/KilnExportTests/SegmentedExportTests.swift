import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnTestSupport
import XCTest

/// Segmented exports: the plan's arithmetic, the keys that decide reuse, and renders split into
/// pieces that equal a single render frame for frame, resume from their finished pieces and
/// leave nothing behind.
final class SegmentedExportTests: ScratchDirectoryTestCase {

    func jobFile(frames: Int = 30, color: String = "#e0c080", audio: Bool = false) throws -> String {
        let url = directory.appendingPathComponent("split.json")
        try Data(
            """
            {"kiln": 1,
             "output": {"path": "out.mp4", "width": 160, "height": 96, "fps": 30,
                        "duration": {"frames": \(frames)}, "crf": 16, "preset": "veryfast", "gop": 8},
             "layers": [
               {"type": "solid", "color": {"keyframes": [{"t": 0, "v": "#202040"}, {"t": 1, "v": "\(color)"}]}},
               {"type": "meshGradient", "width": 2, "height": 2, "opacity": 0.6,
                "points": [[0,0],[1,0],[0,1],{"keyframes": [{"t": 0, "v": [1,1]}, {"t": 1, "v": [0.3,0.4]}]}],
                "colors": ["#ff0000","#00ff00","#0000ff","#ffffff"]}]\(audio ? #", "audio": {"path": "tone.wav", "offset": 0.1}"# : "")}
            """.utf8
        ).write(to: url)
        return url.path
    }

    func segmented(_ segments: Int, hashes: String? = nil, color: String = "#e0c080", audio: Bool = false)
        throws
        -> SegmentedExport
    {
        let loaded = try JobFiles.loadFingerprinted(file: try jobFile(color: color, audio: audio))
        let export = VideoExport(
            job: loaded.job, threads: 2, frameHashes: try hashes.map { try FrameHashLog(path: $0) })
        return SegmentedExport(
            export: export, fingerprint: loaded.fingerprint,
            plan: SegmentPlan(frameCount: 30, framesPerSecond: 30, request: .count(segments)))
    }

    func hashesPath(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func testPlansCoverEveryFrameOnceInEvenPieces() {
        XCTAssertEqual(
            SegmentPlan(frameCount: 100, framesPerSecond: 30, request: .count(3)).ranges,
            [
                0..<33, 33..<66, 66..<100,
            ])
        XCTAssertEqual(
            SegmentPlan(frameCount: 300, framesPerSecond: 30, request: .seconds(4)).ranges.map(\.count),
            [100, 100, 100], "4 s = 120 frames → 3 pieces, evened out")
        XCTAssertEqual(SegmentPlan(frameCount: 300, framesPerSecond: 30, request: .seconds(4)).count, 3)
        XCTAssertEqual(SegmentPlan(frameCount: 361, framesPerSecond: 30, request: .seconds(4)).count, 4)
        XCTAssertEqual(
            SegmentPlan(frameCount: 5, framesPerSecond: 30, request: .count(50)).count, 2, "≥ 2 frames each")
        XCTAssertEqual(SegmentPlan(frameCount: 1, framesPerSecond: 30, request: .count(4)).ranges, [0..<1])
        XCTAssertEqual(
            SegmentPlan(frameCount: 59 * 30, framesPerSecond: 30, request: .automatic).count, 1,
            "short: one piece")
        XCTAssertEqual(SegmentPlan(frameCount: 60 * 30, framesPerSecond: 30, request: .automatic).count, 2)
        XCTAssertEqual(SegmentPlan(frameCount: 600 * 30, framesPerSecond: 30, request: .automatic).count, 20)
        for n in [1, 2, 7, 64] {
            let plan = SegmentPlan(frameCount: 1001, framesPerSecond: 29.97, request: .count(n))
            XCTAssertEqual(plan.ranges.first?.lowerBound, 0)
            XCTAssertEqual(plan.ranges.last?.upperBound, 1001)
            XCTAssertTrue(
                zip(plan.ranges, plan.ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            XCTAssertLessThanOrEqual(
                (plan.ranges.map(\.count).max() ?? 0) - (plan.ranges.map(\.count).min() ?? 0), 1)
        }
    }

    func testDigestsAreStableAndSeparateFields() {
        func hex(_ parts: [String]) -> String {
            var d = ContentDigest()
            for p in parts { d.update(p) }
            return d.hex
        }
        XCTAssertEqual(hex(["abc"]), hex(["abc"]))
        XCTAssertEqual(hex(["abc"]).count, 32)
        XCTAssertNotEqual(hex(["ab", "c"]), hex(["a", "bc"]))
        XCTAssertNotEqual(hex(["abcdefgh1"]), hex(["abcdefgh2"]))
        // Pinned: segment keys must not change between builds, or finished pieces would be lost.
        XCTAssertEqual(hex(["kiln"]), "7bf8248db7b4c77513c82597e749cb54")
    }

    func testKeysChangeWithTheJobAndTheRangeOnly() throws {
        let a = try segmented(3), b = try segmented(3)
        XCTAssertEqual(a.fingerprint, b.fingerprint)
        XCTAssertEqual(a.url(ofSegment: 1), b.url(ofSegment: 1))
        XCTAssertTrue(a.url(ofSegment: 1).lastPathComponent.hasPrefix(".out.mp4.seg-0002-of-0003-"))
        let changed = try segmented(3, color: "#e0c081")
        XCTAssertNotEqual(changed.fingerprint, a.fingerprint)
        XCTAssertNotEqual(changed.url(ofSegment: 1), a.url(ofSegment: 1))
        XCTAssertNotEqual(try segmented(4).url(ofSegment: 1), a.url(ofSegment: 1), "another range")
        XCTAssertEqual(Set((0..<3).map { a.key(ofSegment: $0) }).count, 3)
    }

    /// The pieces' frames are the single render's frames (digests of the pixels before encoding),
    /// and the joined file decodes to the same pictures within what the encoder changes.
    func testASegmentedRenderEqualsASingleRender() throws {
        let single = try segmented(1)
        let whole = directory.appendingPathComponent("whole.mp4")
        _ = try VideoExport(
            job: single.export.job, output: whole, threads: 1,
            frameHashes: try FrameHashLog(path: hashesPath("single.txt"))
        ).run()
        let split = try segmented(4, hashes: hashesPath("split.txt"))
        let summary = try split.run()
        XCTAssertEqual([summary.segments, summary.reused, summary.rendered, summary.frames], [4, 0, 4, 30])

        let singleHashes = try FrameHashLog.read(path: hashesPath("single.txt"))
        XCTAssertEqual(singleHashes.count, 30)
        XCTAssertEqual(try FrameHashLog.read(path: hashesPath("split.txt")), singleHashes)

        var pictures: [[Double]] = []
        let reference = try VideoDecodeBack.decode(path: whole.path) { frame in
            pictures.append(Self.means(frame))
        }
        var worst = 0.0
        let info = try VideoDecodeBack.decode(path: summary.output.path) { frame in
            XCTAssertLessThan(frame.index, pictures.count)
            guard frame.index < pictures.count else { return }
            for (a, b) in zip(Self.means(frame), pictures[frame.index]) { worst = max(worst, abs(a - b)) }
        }
        XCTAssertEqual(reference.decodedFrameCount, 30)
        XCTAssertEqual(info.decodedFrameCount, 30)
        XCTAssertEqual(info.decodeErrors, 0)
        XCTAssertEqual(info.presentationTimestamps.count, 30)
        for (n, t) in info.presentationTimestamps.enumerated() {
            XCTAssertEqual(t, Double(n) / 30, accuracy: 1e-6)
        }
        XCTAssertEqual(info.containerDurationSeconds, 1, accuracy: 1e-3)
        for start in split.plan.ranges.map(\.lowerBound) {
            XCTAssertTrue(info.keyFrameIndices.contains(start), "a keyframe opens segment at \(start)")
        }
        XCTAssertLessThan(worst, 2.5, "decoded colours of the two files (8-bit, 4×4 block means)")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") },
            [],
            "pieces removed after assembly")
    }

    /// Pieces finished earlier (an interrupted run) are reused: only the others are rendered.
    func testAResumedRenderRendersOnlyUnfinishedSegments() throws {
        let first = try segmented(5)
        XCTAssertTrue(try first.renderSegment(0))
        XCTAssertTrue(try first.renderSegment(3))
        XCTAssertFalse(try first.renderSegment(3), "already finished")
        // Interrupted mid-piece: nothing of piece 1 is kept.
        let stop = CancellationFlag()
        stop.cancel(signal: 2)
        XCTAssertThrowsError(try first.renderSegment(1, cancellation: stop))
        XCTAssertFalse(first.isFinished(1))

        let resumed = try segmented(5, hashes: hashesPath("resumed.txt"))
        let summary = try resumed.run()
        XCTAssertEqual([summary.reused, summary.rendered], [2, 3])
        let rendered = try FrameHashLog.read(path: hashesPath("resumed.txt")).keys.sorted()
        let expected = [1, 2, 4].flatMap { Array(resumed.plan.ranges[$0]) }
        XCTAssertEqual(rendered, expected, "only the unfinished pieces' frames were rendered")
        let info = try VideoDecodeBack.decode(path: summary.output.path)
        XCTAssertEqual(info.decodedFrameCount, 30)
        XCTAssertEqual(info.decodeErrors, 0)
    }

    /// A damaged piece (cut short by a full disk, say) is not trusted: it is rendered again.
    func testADamagedSegmentIsRenderedAgain() throws {
        let split = try segmented(3)
        XCTAssertTrue(try split.renderSegment(1))
        let url = split.url(ofSegment: 1)
        let bytes = try Data(contentsOf: url)
        try bytes.prefix(bytes.count / 2).write(to: url)
        XCTAssertFalse(split.isFinished(1))
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        let summary = try split.run()
        XCTAssertEqual([summary.reused, summary.rendered], [0, 3])
    }

    /// The soundtrack is encoded once, beside the segments while they render, then copied into
    /// the joined file; a finished one is reused, and it is removed with the segments.
    func testTheSoundtrackIsEncodedOnceBesideTheSegments() throws {
        try Self.writeTone(to: directory.appendingPathComponent("tone.wav"), seconds: 2)
        let split = try segmented(3, audio: true)
        XCTAssertFalse(split.isAudioFinished)
        XCTAssertTrue(try split.renderAudio())
        XCTAssertTrue(split.isAudioFinished)
        XCTAssertFalse(try split.renderAudio(), "already encoded")
        XCTAssertTrue(split.audioURL.lastPathComponent.hasPrefix(".out.mp4.audio-"))
        XCTAssertNotEqual(try segmented(3, color: "#000000", audio: true).audioURL, split.audioURL)

        let summary = try split.run()
        let reader = try AudioFileReader(path: summary.output.path)
        let (left, _) = try reader.readAll()
        XCTAssertEqual(reader.decodeErrors, 0)
        XCTAssertEqual(Double(left.count), 48_000, accuracy: 1024, "as long as the 1 s video")
        XCTAssertLessThan(Self.rms(left[0..<4000]), 0.001, "silent before the 0.1 s offset")
        XCTAssertGreaterThan(Self.rms(left[9600..<40_000]), 0.1)
        XCTAssertEqual(try VideoDecodeBack.decode(path: summary.output.path).decodedFrameCount, 30)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") },
            [])

        // Without a finished soundtrack the render encodes it on its own thread while the
        // segments render; the result is the same sound.
        let again = try segmented(3, audio: true)
        try FileManager.default.removeItem(at: summary.output)
        let second = try again.run()
        XCTAssertEqual(try AudioFileReader(path: second.output.path).readAll().left, left)
    }

    /// A draft's pieces and soundtrack are keyed by its size and frames: a draft never takes a
    /// full-size piece for its own, nor a full render a draft's, though both write beside one
    /// output with the same plan. A draft that is the whole job is the job.
    func testDraftsAndFullRendersNeverShareSegments() throws {
        try Self.writeTone(to: directory.appendingPathComponent("tone.wav"), seconds: 2)
        let loaded = try JobFiles.loadFingerprinted(file: try jobFile(audio: true))
        func split(_ draft: Draft, hashes: String? = nil) throws -> SegmentedExport {
            let drafted = try loaded.drafted(draft)
            return SegmentedExport(
                export: VideoExport(
                    job: drafted.job, output: directory.appendingPathComponent("out.mp4"), threads: 2,
                    frameHashes: try hashes.map { try FrameHashLog(path: $0) }),
                fingerprint: drafted.fingerprint,
                plan: SegmentPlan(
                    frameCount: drafted.job.output.frameCount, framesPerSecond: 30, request: .count(3)))
        }
        let full = try split(Draft()), half = try split(Draft(size: .scale(0.5)))
        let firstHalf = try split(Draft(span: .range(from: 0, to: 0.5)))
        XCTAssertEqual(firstHalf.plan.ranges, [0..<5, 5..<10, 10..<15])
        let others = [half, firstHalf, try split(Draft(span: .range(from: 0.5, to: nil)))]
        for other in others {
            XCTAssertNotEqual(other.fingerprint, full.fingerprint)
            XCTAssertNotEqual(other.audioURL, full.audioURL)
            for index in 0..<3 { XCTAssertNotEqual(other.url(ofSegment: index), full.url(ofSegment: index)) }
        }
        XCTAssertEqual(
            try split(Draft(size: .scale(1), span: .range(from: 0, to: 1))).fingerprint, full.fingerprint,
            "the whole job at its own size is the job")

        XCTAssertTrue(try full.renderSegment(0))
        XCTAssertFalse(half.isFinished(0), "a full-size piece is not a draft's")
        XCTAssertTrue(try half.renderSegment(0))
        XCTAssertTrue(full.isFinished(0), "and the draft's piece did not replace it")
        let piece = try SegmentFile.probe(path: half.url(ofSegment: 0).path)
        XCTAssertEqual([piece.width, piece.height, piece.frameCount], [80, 48, 10])

        // A segmented draft of the second half: the full render's frames 15…29, pixel for pixel,
        // with the soundtrack cut from 0.5 s.
        _ = try VideoExport(
            job: loaded.job, output: directory.appendingPathComponent("whole.mp4"), threads: 2,
            frameHashes: try FrameHashLog(path: hashesPath("whole.txt"))
        ).run()
        let secondHalf = try split(Draft(span: .range(from: 0.5, to: nil)), hashes: hashesPath("draft.txt"))
        let summary = try secondHalf.run()
        XCTAssertEqual(summary.frames, 15)
        let whole = try FrameHashLog.read(path: hashesPath("whole.txt"))
        XCTAssertEqual(try FrameHashLog.read(path: hashesPath("draft.txt")), whole.filter { $0.key >= 15 })
        let (left, _) = try AudioFileReader(path: summary.output.path).readAll()
        XCTAssertEqual(Double(left.count), 24_000, accuracy: 1024, "as long as the 0.5 s video")
        XCTAssertGreaterThan(
            Self.rms(left[0..<4000]), 0.1, "the tone from the start: 0.5 s is past its offset")
    }

    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, samples.count))).squareRoot()
    }

    /// A 440 Hz stereo tone as 16-bit PCM WAV at 48 kHz.
    static func writeTone(to url: URL, seconds: Double) throws {
        let frames = Int(seconds * 48_000)
        var bytes: [UInt8] = []
        func u32(_ v: Int) { bytes += withUnsafeBytes(of: UInt32(v).littleEndian, Array.init) }
        func u16(_ v: Int) { bytes += withUnsafeBytes(of: UInt16(v).littleEndian, Array.init) }
        bytes += Array("RIFF".utf8)
        u32(36 + frames * 4)
        bytes += Array("WAVEfmt ".utf8)
        u32(16)
        u16(1)
        u16(2)
        u32(48_000)
        u32(48_000 * 4)
        u16(4)
        u16(16)
        bytes += Array("data".utf8)
        u32(frames * 4)
        for i in 0..<frames {
            let v = Int16((sin(2 * Double.pi * 440 * Double(i) / 48_000) * 16_000).rounded())
            u16(Int(UInt16(bitPattern: v)))
            u16(Int(UInt16(bitPattern: v)))
        }
        try Data(bytes).write(to: url)
    }

    /// 4×4 block means of the decoded picture (R, G, B per block).
    static func means(_ frame: DecodedFrame) -> [Double] {
        var out: [Double] = []
        for by in 0..<4 {
            for bx in 0..<4 {
                let m = frame.meanRGB(x: bx * 40, y: by * 24, width: 40, height: 24)
                out += [m.r, m.g, m.b]
            }
        }
        return out
    }

    /// A link planted at a piece's name (to a real, valid piece elsewhere) is not a finished
    /// piece: it is removed (the link, not its target) and the piece rendered into a file of ours.
    func testALinkAtAPieceNameIsNotAFinishedPiece() throws {
        let split = try segmented(3)
        XCTAssertTrue(try split.renderSegment(1))
        let url = split.url(ofSegment: 1)
        let elsewhere = directory.appendingPathComponent("elsewhere.mp4")
        try FileManager.default.moveItem(at: url, to: elsewhere)
        let before = try Data(contentsOf: elsewhere)
        XCTAssertEqual(symlink(elsewhere.path, url.path), 0)
        XCTAssertFalse(split.isFinished(1), "a link is never a finished piece")
        var info = stat()
        XCTAssertNotEqual(lstat(url.path, &info), 0, "the link was removed")
        XCTAssertEqual(symlink(elsewhere.path, url.path), 0)
        let summary = try split.run()
        XCTAssertEqual([summary.reused, summary.rendered], [0, 3])
        XCTAssertEqual(try Data(contentsOf: elsewhere), before, "the link's target is untouched")
        XCTAssertEqual(try VideoDecodeBack.decode(path: summary.output.path).decodedFrameCount, 30)
    }

    /// The assembly reads pieces through descriptors opened without following links: a piece
    /// swapped for a link after it was checked is "not finished", never joined.
    func testTheAssemblyNeverJoinsALink() throws {
        let split = try segmented(2)
        XCTAssertTrue(try split.renderSegment(0))
        XCTAssertTrue(try split.renderSegment(1))
        let url = split.url(ofSegment: 0)
        let elsewhere = directory.appendingPathComponent("planted.mp4")
        try FileManager.default.moveItem(at: url, to: elsewhere)
        XCTAssertEqual(symlink(elsewhere.path, url.path), 0)
        XCTAssertThrowsError(try split.assemble()) { error in
            XCTAssertEqual((error as? ExportError)?.exitCode, 73)
            XCTAssertTrue("\(error)".contains("is not finished"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: split.output.path))
    }
}
