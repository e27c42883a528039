import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// What `kiln review` reads of a finished MP4, checked against a full decode-back of the same file:
/// the header facts, and the frames shown at given times (some between keyframes, so a seek must
/// decode forward from the keyframe before).
final class VideoFileFactsTests: XCTestCase {
    override func setUp() { quietFFmpegLogs() }

    func testFactsMatchTheDecodedStream() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("clip.mp4")
        let clip = FlatColorClip.standard
        try clip.write(to: path, settings: FlatColorClip.settings())
        let facts = try VideoFileFacts.probe(path: path)
        let decoded = try VideoDecodeBack.decode(path: path)
        XCTAssertEqual(facts.codec, decoded.codecName)
        XCTAssertEqual([facts.width, facts.height], [decoded.width, decoded.height])
        XCTAssertEqual(facts.pixelFormat, decoded.pixelFormat)
        XCTAssertEqual(
            [facts.colorPrimaries, facts.colorTransfer, facts.colorSpace, facts.colorRange],
            [decoded.colorPrimaries, decoded.colorTransfer, decoded.colorSpace, decoded.colorRange])
        XCTAssertEqual(facts.frameCount, decoded.decodedFrameCount)
        XCTAssertEqual(facts.frameCount, clip.frameCount)
        let seconds = Double(clip.frameCount * 1001) / 30000
        XCTAssertEqual(facts.durationSeconds, seconds, accuracy: 1e-3)
        XCTAssertEqual(facts.frameRate, 30000 / 1001, accuracy: 1e-6)
        XCTAssertNil(facts.audioCodec)
    }

    func testGrabbedFramesAreTheOnesShownAtTheirTimes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("clip.mp4")
        let clip = FlatColorClip.standard
        try clip.write(to: path, settings: FlatColorClip.settings(gop: 12))
        let frameSeconds = 1001.0 / 30000
        // Keyframes every 12 frames: 13 and 30 are mid-GOP; 0 is the first, 47 the last.
        let indices = [0, 13, 30, 47, 12]
        var times = indices.map { (Double($0) + 0.5) * frameSeconds }
        times.append(100)  // past the end: the last frame stays shown
        let images = try VideoFrameGrab.frames(path: path, atSeconds: times)
        XCTAssertEqual(images.count, times.count)
        for (image, index) in zip(images, indices + [clip.frameCount - 1]) {
            XCTAssertEqual([image.width, image.height], [clip.width, clip.height])
            let expected = clip.color(ofFrame: index)
            // Neighbouring frames differ by 3 or 4 in every channel: within 2 is this frame.
            let mean = Self.meanRGB(image)
            XCTAssertEqual(mean.r, expected.r, accuracy: 2, "frame \(index)")
            XCTAssertEqual(mean.g, expected.g, accuracy: 2, "frame \(index)")
            XCTAssertEqual(mean.b, expected.b, accuracy: 2, "frame \(index)")
        }
    }

    static func meanRGB(_ image: DecodedImage) -> (r: Double, g: Double, b: Double) {
        var sums = (r: 0.0, g: 0.0, b: 0.0)
        for pixel in stride(from: 0, to: image.rgba.count, by: 4) {
            sums.r += Double(image.rgba[pixel])
            sums.g += Double(image.rgba[pixel + 1])
            sums.b += Double(image.rgba[pixel + 2])
        }
        let count = Double(image.width * image.height)
        return (sums.r / count, sums.g / count, sums.b / count)
    }
}
