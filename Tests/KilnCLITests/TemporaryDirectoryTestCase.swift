import Foundation
import KilnTestSupport
import XCTest

class TemporaryDirectoryTestCase: ScratchDirectoryTestCase {
    /// What every MP4 Kiln writes must be: H.264 yuv420p of the job's size and frame count,
    /// tagged BT.709 limited range, decoded without errors.
    func assertKilnVideo(
        _ info: VideoStreamInfo, width: Int, height: Int, frames: Int, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(info.codecName, "h264", file: file, line: line)
        XCTAssertEqual(info.pixelFormat, "yuv420p", file: file, line: line)
        XCTAssertEqual([info.width, info.height], [width, height], file: file, line: line)
        XCTAssertEqual(info.decodedFrameCount, frames, file: file, line: line)
        XCTAssertEqual(info.decodeErrors, 0, file: file, line: line)
        XCTAssertEqual(
            [info.colorPrimaries, info.colorTransfer, info.colorSpace, info.colorRange],
            ["bt709", "bt709", "bt709", "tv"], file: file, line: line)
    }

    /// A 1 kHz sine made by the ffmpeg program (test fixtures only; Kiln never runs it).
    func tone(seconds: Double) throws -> String {
        let path = directory.appendingPathComponent("tone.flac").path
        guard
            let made = try KilnProcess.tool(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i",
                    "sine=frequency=1000:sample_rate=44100:duration=\(seconds)",
                    "-ac", "2", path,
                ])
        else { throw XCTSkip("/usr/bin/ffmpeg not installed") }
        XCTAssertEqual(made.status, 0, made.stderr)
        return path
    }
}
