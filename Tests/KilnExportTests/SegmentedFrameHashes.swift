import Foundation
import KilnExport
import KilnTestSupport
import XCTest

extension ScratchDirectoryTestCase {
    /// Renders `loaded` whole on 1 thread and split into `segments` segments on 3, logging each
    /// frame's digest, and checks the split render has `frames` frames whose digests are the
    /// whole render's. Returns the whole render's digests by frame.
    func assertSegmentedRenderEqualsWhole(
        _ loaded: FingerprintedJob, frames: Int, segments: Int, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> [Int: String] {
        let singleHashes = directory.appendingPathComponent("single.txt").path
        _ = try VideoExport(
            job: loaded.job, output: directory.appendingPathComponent("whole.mp4"), threads: 1,
            frameHashes: try FrameHashLog(path: singleHashes)
        ).run()
        let splitHashes = directory.appendingPathComponent("split.txt").path
        let split = SegmentedExport(
            export: VideoExport(
                job: loaded.job, threads: 3, frameHashes: try FrameHashLog(path: splitHashes)),
            fingerprint: loaded.fingerprint,
            plan: SegmentPlan(
                frameCount: frames, framesPerSecond: loaded.job.output.frameRate.doubleValue,
                request: .count(segments)))
        XCTAssertEqual(try split.run().frames, frames, file: file, line: line)
        let single = try FrameHashLog.read(path: singleHashes)
        XCTAssertEqual(single.count, frames, file: file, line: line)
        XCTAssertEqual(try FrameHashLog.read(path: splitHashes), single, file: file, line: line)
        return single
    }
}
