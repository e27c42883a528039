import Foundation
import KilnModel
import KilnRaster
import KilnScene
import Synchronization
import XCTest

final class VideoTimingTests: XCTestCase {
    func testClipTimeFollowsTrimOffsetSpeedAndLoop() {
        let once = PlaybackTiming(trimStart: 2, trimEnd: 4, offset: 1, speed: 2, loop: false)
        XCTAssertEqual(once.clipTime(at: 0), .init(seconds: 2, excluding: false), "waits on the first frame")
        XCTAssertEqual(once.clipTime(at: 1.5), .init(seconds: 3, excluding: false))
        XCTAssertEqual(
            once.clipTime(at: 2), .init(seconds: 4, excluding: true), "the end holds the last frame")
        XCTAssertEqual(once.clipTime(at: 60), .init(seconds: 4, excluding: true))
        let looping = PlaybackTiming(trimStart: 2, trimEnd: 4, offset: 1, speed: 2, loop: true)
        XCTAssertEqual(looping.clipTime(at: 2), .init(seconds: 2, excluding: false), "wraps at the end")
        XCTAssertEqual(looping.clipTime(at: 2.25), .init(seconds: 2.5, excluding: false))
        // 71/30 s at 1.5× from 0.5 s is 2.8 s less an ulp: exactly one loop of 2.8 s.
        let ulp = PlaybackTiming(trimStart: 0.4, trimEnd: 3.2, offset: 0.5, speed: 1.5, loop: true)
        XCTAssertEqual(ulp.clipTime(at: 71.0 / 30).seconds, 0.4)
    }

    /// A clip that stops decoding during a render refuses the frame, naming why, instead of
    /// letting a frozen picture into the video.
    func testAClipThatStopsDecodingRefusesTheFrame() {
        let source = FailingSource()
        let layer = LayerNode(
            kind: "video", name: nil, opacity: .constant(1),
            content: VideoLayer(
                source: source, naturalSize: SIMD2(4, 4), size: nil, fit: .fill,
                timing: PlaybackTiming(trimStart: 0, trimEnd: 10, offset: 0, speed: 1, loop: false)),
            path: JSONPath.root.key("layers").index(0))
        let group = LayerNode(
            kind: "group", name: nil, opacity: .constant(1), content: GroupLayer(size: nil),
            children: [layer],
            path: JSONPath.root.key("layers").index(0))
        let renderer = SceneRenderer(
            layers: [group], camera: nil, canvas: Canvas(width: 8, height: 8), threads: 2)
        let frame = RGBA8Frame(width: 8, height: 8)
        renderer.render(at: 0.5, yuv: nil, rgba: frame)
        XCTAssertNil(renderer.refusal)
        source.broken.withLock { $0 = true }
        renderer.render(at: 1, yuv: nil, rgba: frame)
        XCTAssertEqual(renderer.refusal, "at 1 s: video clip.mp4 could not be read")
    }
}

private final class FailingSource: VideoFrameSource {
    let broken = Mutex(false)
    let picture = RasterImage(width: 4, height: 4, premultipliedRGBA: [UInt8](repeating: 255, count: 64))

    func frame(at time: PlaybackTiming.ClipTime) -> RasterImage { picture }
    var failure: String? { broken.withLock { $0 } ? "video clip.mp4 could not be read" : nil }
}
