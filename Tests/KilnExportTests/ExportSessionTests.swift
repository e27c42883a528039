import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnTestSupport
import XCTest

/// The one export session behind `render`, the queue worker and the stills: both render paths
/// write the same frames and sound, an interrupted or abandoned export leaves nothing half-written, and the
/// steps the callers share (load, output check, segment choice) decide as the callers did.
final class ExportSessionTests: ScratchDirectoryTestCase {
    func jobFile(frames: Int = 30, format: String = "h264", audio: Bool = false) throws -> String {
        let url = directory.appendingPathComponent("session.json")
        let encoder = format == "h264" ? #", "crf": 18, "preset": "veryfast", "gop": 8"# : ""
        try Data(
            """
            {"kiln": 1,
             "output": {"path": "out.\(format == "h264" ? "mp4" : format)", "format": "\(format)",
                        "width": 96, "height": 64, "fps": 30, "duration": {"frames": \(frames)}\(encoder)},
             "layers": [
               {"type": "solid", "color": {"keyframes": [{"t": 0, "v": "#203050"}, {"t": 1, "v": "#e0a040"}]}},
               {"type": "meshGradient", "width": 2, "height": 2, "opacity": 0.5,
                "points": [[0,0],[1,0],[0,1],{"keyframes": [{"t": 0, "v": [1,1]}, {"t": 1, "v": [0.2,0.6]}]}],
                "colors": ["#ff0000","#00ff00","#0000ff","#ffffff"]}]\(audio ? #", "audio": {"path": "tone.wav"}"# : "")}
            """.utf8
        ).write(to: url)
        return url.path
    }

    func session(_ loaded: FingerprintedJob, in folder: String, threads: Int = 2) throws -> ExportSession {
        let output = directory.appendingPathComponent(folder).appendingPathComponent("out.mp4")
        let session = ExportSession(
            job: loaded.job, fingerprint: loaded.fingerprint, output: output, threads: threads)
        try session.createOutputDirectory { _ in }
        return session
    }

    func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    func hashes(_ name: String) -> String { directory.appendingPathComponent("\(name).hashes").path }

    /// The digest of the frames as rendered, before encoding, that the file carries: libx264's
    /// own bytes may differ between processes for the same frames (its threads), these never do.
    func framesDigest(_ url: URL) throws -> String? {
        try ContainerTags.read(path: url.path)[ContainerTags.framesDigest]
    }

    func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent(folder).path
        ).sorted()
    }

    /// The command line loads the file, the worker the queue's snapshot of it: the same job and
    /// fingerprint, so the same segment keys.
    func loadedBothWays() throws -> (file: FingerprintedJob, snapshot: FingerprintedJob) {
        let path = try jobFile(audio: true)
        let file = try ExportSession.load(
            .file(path), options: JobLoadOptions(), cancellation: CancellationFlag())
        let snapshot = try ExportSession.load(
            .snapshot(
                bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path,
                baseDirectory: directory),
            options: JobLoadOptions(), cancellation: CancellationFlag())
        return (file, snapshot)
    }

    func testTheCommandLineAndWorkerPathsWriteTheSameFrames() throws {
        try SegmentedExportTests.writeTone(to: directory.appendingPathComponent("tone.wav"), seconds: 2)
        let (file, snapshot) = try loadedBothWays()
        XCTAssertEqual(file.fingerprint, snapshot.fingerprint)
        let plan = SegmentPlan(frameCount: 30, framesPerSecond: 30, request: .count(3))

        // `kiln render`: the whole export in one process, in segments.
        var cliSession = try session(file, in: "cli", threads: 3)
        try cliSession.logFrameHashes(at: hashes("cli"))
        let cli = try cliSession.run(plan: plan, cancellation: CancellationFlag())
        XCTAssertEqual([cli.frames, cli.segments, cli.reused, cli.rendered], [30, 3, 0, 3])

        // A worker's render processes: each piece on its own (1 thread), then the assembly.
        var worker = try session(snapshot, in: "worker", threads: 1)
        try worker.logFrameHashes(at: hashes("worker"))
        var logged: [String] = []
        var fractions: [Double] = []
        for piece in [ExportSession.Piece.segment(2), .soundtrack, .segment(0), .segment(1), .assembly] {
            let made = try worker.run(
                piece, of: plan, cancellation: CancellationFlag(), log: { logged.append($0) },
                beforeCommit: { true }, progress: { fractions.append($0) })
            if case .segment(let index) = piece { XCTAssertEqual(made.frames, plan.ranges[index].count) }
            if piece == .assembly { XCTAssertEqual([made.output: made.frames], [worker.destination: 30]) }
        }
        XCTAssertEqual(logged, [], "nothing reused, missing or stale")
        XCTAssertTrue(fractions.contains(0.95))
        XCTAssertEqual(
            try FrameHashLog.read(path: hashes("worker")), try FrameHashLog.read(path: hashes("cli")))
        XCTAssertEqual(try framesDigest(worker.destination), try framesDigest(cli.output))
        XCTAssertEqual(
            try AudioFileReader(path: worker.destination.path).readAll().left,
            try AudioFileReader(path: cli.output.path).readAll().left)
        XCTAssertEqual(try names(in: "worker"), ["out.mp4"], "the pieces are removed once joined")

        // A piece found finished is reused and said so (the assembly removed them all).
        for piece in [ExportSession.Piece.soundtrack, .segment(1)] {
            for _ in 0..<2 {
                _ = try worker.run(
                    piece, of: plan, cancellation: CancellationFlag(), log: { logged.append($0) },
                    progress: { _ in })
            }
        }
        XCTAssertEqual(
            logged,
            ["the soundtrack was already encoded; reused", "segment 2 of 3 was already finished; reused"])
    }

    func testAWholeExportIsTheVideoExportsFramesOnAnyPath() throws {
        let loaded = try ExportSession.load(
            .file(try jobFile()), options: JobLoadOptions(), cancellation: CancellationFlag())
        let direct = try VideoExport(
            job: loaded.job, output: directory.appendingPathComponent("direct.mp4"), threads: 1,
            frameHashes: try FrameHashLog(path: hashes("direct"))
        ).run()
        let whole = SegmentPlan(ranges: [0..<30])
        var cli = try session(loaded, in: "cli", threads: 4)
        try cli.logFrameHashes(at: hashes("cli"))
        let cliSummary = try cli.run(plan: whole, cancellation: CancellationFlag())
        var worker = try session(loaded, in: "worker", threads: 1)
        try worker.logFrameHashes(at: hashes("worker"))
        let workerSummary = try worker.run(
            plan: whole, cancellation: CancellationFlag(), beforeCommit: { true })
        XCTAssertNil(cliSummary.segments)
        XCTAssertEqual([cliSummary.frames, workerSummary.frames], [30, 30])
        XCTAssertEqual(try FrameHashLog.read(path: hashes("direct")).count, 30)
        for name in ["cli", "worker"] {
            XCTAssertEqual(
                try FrameHashLog.read(path: hashes(name)), try FrameHashLog.read(path: hashes("direct")))
        }
        XCTAssertEqual(try framesDigest(cliSummary.output), try framesDigest(direct.output))
        XCTAssertEqual(try framesDigest(workerSummary.output), try framesDigest(direct.output))
    }

    /// Stopped partway, an export leaves no output and no temp file; a segmented one keeps only
    /// its finished segments, which the next run reuses.
    func testCancellationLeavesNothingHalfWritten() throws {
        let loaded = try ExportSession.load(
            .file(try jobFile()), options: JobLoadOptions(), cancellation: CancellationFlag())
        let whole = try session(loaded, in: "whole")
        let flag = CancellationFlag()
        XCTAssertThrowsError(
            try whole.run(
                plan: SegmentPlan(ranges: [0..<30]), cancellation: flag,
                progress: { progress in
                    if progress.frame >= 3 { flag.cancel(signal: 2) }
                })
        ) { XCTAssertEqual(($0 as? ExportError)?.exitCode, 130) }
        XCTAssertEqual(try names(in: "whole"), [])

        let split = try session(loaded, in: "split")
        let plan = SegmentPlan(frameCount: 30, framesPerSecond: 30, request: .count(3))
        let stop = CancellationFlag()
        XCTAssertThrowsError(
            try split.run(
                plan: plan, cancellation: stop,
                progress: { progress in
                    if progress.frame >= 15 { stop.cancel(signal: 15) }
                })
        ) { XCTAssertEqual(($0 as? ExportError)?.exitCode, 143) }
        XCTAssertEqual(try names(in: "split"), [split.segmented(plan).url(ofSegment: 0).lastPathComponent])
        let resumed = try split.run(plan: plan, cancellation: CancellationFlag())
        XCTAssertEqual([resumed.reused, resumed.rendered], [1, 2])
        XCTAssertEqual(try names(in: "split"), ["out.mp4"])
    }

    /// A worker that lost its lease gives up the finished file instead of renaming it into place.
    func testALostLeaseCommitsNothing() throws {
        let loaded = try ExportSession.load(
            .file(try jobFile(frames: 6)), options: JobLoadOptions(), cancellation: CancellationFlag())
        let worker = try session(loaded, in: "worker")
        XCTAssertThrowsError(
            try worker.run(
                plan: SegmentPlan(ranges: [0..<6]), cancellation: CancellationFlag(), beforeCommit: { false })
        ) {
            guard case .cancelled(let code) = $0 as? ExportError else { return XCTFail("\($0)") }
            XCTAssertEqual(code, CancellationFlag.leaseLost)
        }
        let plan = SegmentPlan(ranges: [0..<3, 3..<6])
        XCTAssertThrowsError(
            try worker.run(
                .segment(0), of: plan, cancellation: CancellationFlag(), log: { _ in },
                beforeCommit: { false },
                progress: { _ in }))
        XCTAssertEqual(try names(in: "worker"), [])
    }

    func testALoadCancelledBeforeItEndsIsACancellation() throws {
        let path = try jobFile()
        let flag = CancellationFlag()
        flag.cancel(signal: 2)
        XCTAssertThrowsError(
            try ExportSession.load(.file(path), options: JobLoadOptions(), cancellation: flag)
        ) {
            guard case .cancelled(let signal) = $0 as? ExportError else { return XCTFail("\($0)") }
            XCTAssertEqual(signal, 2)
        }
        XCTAssertThrowsError(
            try ExportSession.load(
                .file(directory.appendingPathComponent("missing.json").path), options: JobLoadOptions(),
                cancellation: CancellationFlag())
        ) {
            guard case .job = $0 as? ExportError else { return XCTFail("\($0)") }
        }
    }

    func testTheOutputIsCheckedOnlyWhenAskedFor() throws {
        let job = try ExportSession.loadForStills(file: try jobFile(), options: JobLoadOptions())
        let rules = PathRules()
        XCTAssertNil(
            ExportSession(job: job).outputProblem(under: rules), "the job's own path was checked at load")
        XCTAssertEqual(ExportSession(job: job).destination, ExportSession(job: job).output)
        let overJob = ExportSession(job: job, output: URL(fileURLWithPath: job.file))
        XCTAssertNotNil(overJob.outputProblem(under: rules))
        XCTAssertNotNil(
            ExportSession(stillOf: job, output: URL(fileURLWithPath: job.file)).outputProblem(under: rules))
        XCTAssertNil(
            ExportSession(stillOf: job, output: directory.appendingPathComponent("frame.png")).outputProblem(
                under: rules))
    }

    func testSegmentsAreChosenOnlyForAFormatThatJoins() throws {
        let long = 61 * 30
        let h264 = ExportSession(
            job: try ExportSession.loadForStills(file: try jobFile(frames: long), options: JobLoadOptions()))
        let automatic = SegmentPlan(frameCount: long, framesPerSecond: 30, request: .automatic)
        XCTAssertEqual(automatic.count, 3, "61 s in pieces of about 30 s")
        XCTAssertEqual(h264.segmentChoice(.automatic), .planned(automatic))
        let gif = ExportSession(
            job: try ExportSession.loadForStills(
                file: try jobFile(frames: long, format: "gif"), options: JobLoadOptions()))
        XCTAssertEqual(gif.segmentChoice(.automatic), .onePiece(SegmentPlan(ranges: [0..<long])))
        XCTAssertEqual(gif.segmentChoice(.count(3)), .refused)
        XCTAssertEqual(gif.segmentChoice(.count(1)), .planned(SegmentPlan(ranges: [0..<long])))

        XCTAssertEqual(
            h264.recordedPlan([0..<915, 915..<1830], count: 2), SegmentPlan(ranges: [0..<915, 915..<1830]))
        XCTAssertNil(h264.recordedPlan([0..<915, 915..<1800], count: 2), "short of the job's frames")
        XCTAssertNil(h264.recordedPlan([0..<915, 915..<1830], count: 3))
    }
}
