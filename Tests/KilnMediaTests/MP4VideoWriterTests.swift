import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

final class MP4VideoWriterTests: XCTestCase {
    private let clip = FlatColorClip.standard

    override func setUp() { quietFFmpegLogs() }

    func testEncodedClipDecodesBackWithExpectedStreamPropertiesAndColors() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("clip.mp4")
        XCTAssertEqual(try clip.write(to: path, settings: FlatColorClip.settings()), 48)

        let clip = self.clip
        var colorErrors: [String] = []
        let info = try VideoDecodeBack.decode(path: path) { frame in
            let expected = clip.color(ofFrame: frame.index)
            let mean = frame.meanRGB()
            let worst = max(abs(mean.r - expected.r), abs(mean.g - expected.g), abs(mean.b - expected.b))
            if worst > 3 { colorErrors.append("frame \(frame.index): got \(mean), expected \(expected)") }
            XCTAssertEqual(frame.width, 320)
            XCTAssertEqual(frame.height, 240)
        }

        XCTAssertEqual(info.codecName, "h264")
        XCTAssertEqual(info.pixelFormat, "yuv420p")
        XCTAssertEqual(info.width, 320)
        XCTAssertEqual(info.height, 240)
        XCTAssertEqual(info.decodedFrameCount, 48)
        XCTAssertEqual(info.decodeErrors, 0)
        XCTAssertFalse(info.hasAudio)
        XCTAssertEqual(
            [info.colorPrimaries, info.colorTransfer, info.colorSpace, info.colorRange],
            ["bt709", "bt709", "bt709", "tv"])
        XCTAssertEqual(info.frameRateNumerator, 30000)
        XCTAssertEqual(info.frameRateDenominator, 1001)
        XCTAssertEqual(colorErrors, [])

        let frameDuration = 1001.0 / 30000.0
        XCTAssertEqual(info.presentationTimestamps.count, 48)
        XCTAssertEqual(info.presentationTimestamps.first ?? -1, 0, accuracy: 1e-9)
        for (earlier, later) in zip(info.presentationTimestamps, info.presentationTimestamps.dropFirst()) {
            XCTAssertGreaterThan(later, earlier)
            XCTAssertEqual(later - earlier, frameDuration, accuracy: 1e-6)
        }
        XCTAssertEqual(info.containerDurationSeconds, 48 * frameDuration, accuracy: 0.001)
        XCTAssertEqual(info.streamDurationSeconds, 48 * frameDuration, accuracy: 0.001)

        let boxes = try MP4Boxes.topLevel(path: path)
        let moov = try XCTUnwrap(boxes.firstIndex(of: "moov"), "boxes: \(boxes)")
        let mdat = try XCTUnwrap(boxes.firstIndex(of: "mdat"), "boxes: \(boxes)")
        XCTAssertLessThan(moov, mdat, "faststart should put moov first: \(boxes)")
        XCTAssertEqual(boxes.first, "ftyp")
        XCTAssertTrue(try MP4Boxes.moovContainsColr(path: path))
    }

    func testWithoutFaststartMoovFollowsMdat() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("slow.mp4")
        try FlatColorClip(width: 64, height: 48, frameCount: 5).write(
            to: path,
            settings: VideoSettings(
                width: 64, height: 48, frameRateNumerator: 25, frameRateDenominator: 1, preset: "ultrafast",
                faststart: false))
        let boxes = try MP4Boxes.topLevel(path: path)
        XCTAssertLessThan(
            try XCTUnwrap(boxes.firstIndex(of: "mdat")), try XCTUnwrap(boxes.firstIndex(of: "moov")))
        XCTAssertEqual(try VideoDecodeBack.decode(path: path).decodedFrameCount, 5)
    }

    func testGOPSettingPlacesKeyframesEveryTwelveFrames() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("gop.mp4")
        try clip.write(to: path, settings: FlatColorClip.settings(gop: 12))
        XCTAssertEqual(try VideoDecodeBack.decode(path: path).keyFrameIndices, [0, 12, 24, 36])
    }

    func testSameInputEncodesToIdenticalDecodedFrames() throws {
        let directory = try TemporaryDirectory()
        func planeHashes(_ name: String) throws -> [UInt64] {
            let path = directory.path(name)
            try clip.write(to: path, settings: FlatColorClip.settings())
            var hashes: [UInt64] = []
            _ = try VideoDecodeBack.decode(path: path) { frame in
                var hash = FNV1a()
                hash.add(frame.y, rowLength: frame.width, rows: frame.height, stride: frame.yStride)
                hash.add(frame.u, rowLength: frame.width / 2, rows: frame.height / 2, stride: frame.uvStride)
                hash.add(frame.v, rowLength: frame.width / 2, rows: frame.height / 2, stride: frame.uvStride)
                hashes.append(hash.value)
            }
            return hashes
        }
        let first = try planeHashes("a.mp4")
        let second = try planeHashes("b.mp4")
        XCTAssertEqual(first.count, 48)
        XCTAssertEqual(first, second)
        XCTAssertGreaterThan(Set(first).count, 1, "frames differ in colour, so their hashes must too")
    }

    func testAbortLeavesDeletableFileAndIsIdempotent() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("aborted.mp4")
        let writer = try VideoFileWriter(path: path, settings: FlatColorClip.settings(width: 64, height: 48))
        let y = [UInt8](repeating: 100, count: 64 * 48), uv = [UInt8](repeating: 128, count: 32 * 24)
        for _ in 0..<3 { try writer.append(y: y, yStride: 64, u: uv, v: uv, uvStride: 32) }
        writer.abort()
        writer.abort()
        XCTAssertThrowsError(try writer.append(y: y, yStride: 64, u: uv, v: uv, uvStride: 32))
        XCTAssertThrowsError(try writer.finish())
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertNoThrow(try FileManager.default.removeItem(atPath: path))
    }

    func testAppendAfterFinishThrowsAndAbortAfterFinishIsHarmless() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("finished.mp4")
        let writer = try VideoFileWriter(path: path, settings: FlatColorClip.settings(width: 64, height: 48))
        let y = [UInt8](repeating: 100, count: 64 * 48), uv = [UInt8](repeating: 128, count: 32 * 24)
        try writer.append(y: y, yStride: 64, u: uv, v: uv, uvStride: 32)
        XCTAssertEqual(try writer.finish(), 1)
        XCTAssertThrowsError(try writer.append(y: y, yStride: 64, u: uv, v: uv, uvStride: 32)) { error in
            XCTAssertEqual((error as? MediaError)?.function, "VideoFileWriter.append")
        }
        XCTAssertThrowsError(try writer.finish())
        writer.abort()
        XCTAssertEqual(try VideoDecodeBack.decode(path: path).decodedFrameCount, 1)
    }

    func testMissingDirectoryThrowsNamingAvioOpen() throws {
        let path = "/nonexistent-kiln-\(UUID().uuidString)/out.mp4"
        XCTAssertThrowsError(try VideoFileWriter(path: path, settings: FlatColorClip.settings())) { error in
            let mediaError = error as? MediaError
            XCTAssertEqual(mediaError?.function, "avio_open")
            XCTAssertLessThan(mediaError?.code ?? 0, 0)
            XCTAssertTrue(String(describing: error).contains("avio_open"), "\(error)")
        }
    }

    func testInvalidSettingsAndUnknownPresetThrow() throws {
        let directory = try TemporaryDirectory()
        XCTAssertThrowsError(
            try VideoFileWriter(
                path: directory.path("odd.mp4"), settings: FlatColorClip.settings(width: 321))
        )
        var settings = FlatColorClip.settings()
        settings.preset = "no-such-preset"
        XCTAssertThrowsError(try VideoFileWriter(path: directory.path("preset.mp4"), settings: settings)) {
            error in
            XCTAssertEqual((error as? MediaError)?.function, "avcodec_open2")
        }
    }

    func testDecodeBackOfMissingFileThrows() {
        XCTAssertThrowsError(try VideoDecodeBack.decode(path: "/nonexistent-kiln/clip.mp4")) { error in
            XCTAssertEqual((error as? MediaError)?.function, "avformat_open_input")
        }
    }
}
