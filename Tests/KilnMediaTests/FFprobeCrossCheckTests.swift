import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// Cross-checks the writer's output with an independent reader (the ffprobe program).
final class FFprobeCrossCheckTests: XCTestCase {
    private static let ffprobe = "/usr/bin/ffprobe"

    override func setUp() { quietFFmpegLogs() }

    func testFFprobeReportsH264BT709TVRangeAndFrameCount() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.ffprobe) else {
            throw XCTSkip("\(Self.ffprobe) not installed")
        }
        let directory = try TemporaryDirectory()
        let path = directory.path("clip.mp4")
        try FlatColorClip.standard.write(to: path, settings: FlatColorClip.settings())

        let fields = try probe([
            "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_streams", path,
        ])
        XCTAssertEqual(fields["codec_name"], "h264")
        XCTAssertEqual(fields["pix_fmt"], "yuv420p")
        XCTAssertEqual(fields["width"], "320")
        XCTAssertEqual(fields["height"], "240")
        XCTAssertEqual(fields["color_range"], "tv")
        XCTAssertEqual(fields["color_space"], "bt709")
        XCTAssertEqual(fields["color_transfer"], "bt709")
        XCTAssertEqual(fields["color_primaries"], "bt709")
        XCTAssertEqual(fields["chroma_location"], "left")
        XCTAssertEqual(fields["r_frame_rate"], "30000/1001")
        XCTAssertEqual(fields["avg_frame_rate"], "30000/1001")
        XCTAssertEqual(fields["nb_read_frames"], "48")

        let format = try probe(["-v", "error", "-show_format", path])
        XCTAssertEqual(Double(format["duration"] ?? "") ?? 0, 48 * 1001 / 30000, accuracy: 0.001)
    }

    /// The container `colr` box could mask a missing VUI; trace_headers reads the SPS itself.
    func testH264VUICarriesBT709LimitedRange() throws {
        let ffmpeg = "/usr/bin/ffmpeg"
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else {
            throw XCTSkip("\(ffmpeg) not installed")
        }
        let directory = try TemporaryDirectory()
        let path = directory.path("vui.mp4")
        try FlatColorClip(width: 64, height: 48, frameCount: 2).write(
            to: path, settings: FlatColorClip.settings(width: 64, height: 48))

        let trace = try run(
            ffmpeg, ["-v", "trace", "-i", path, "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"])
        func syntaxElement(_ name: String) -> String? {
            let line = trace.split(separator: "\n").first {
                $0.contains(" \(name) ") && $0.contains("trace_headers")
            }
            return line.flatMap { $0.split(separator: "=").last }.map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        XCTAssertEqual(syntaxElement("colour_primaries"), "1")
        XCTAssertEqual(syntaxElement("transfer_characteristics"), "1")
        XCTAssertEqual(syntaxElement("matrix_coefficients"), "1")
        XCTAssertEqual(syntaxElement("video_full_range_flag"), "0")
    }

    private func probe(_ arguments: [String]) throws -> [String: String] {
        var fields: [String: String] = [:]
        for line in try run(Self.ffprobe, arguments).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }

    /// Runs a tool and returns stdout and stderr together (ffmpeg traces go to stderr).
    private func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(executable) \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }
}
