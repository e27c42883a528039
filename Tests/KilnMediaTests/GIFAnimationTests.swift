import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// Kiln's own GIF writer, read back by FFmpeg's GIF decoder: LZW that round-trips exactly
/// (clears of a full table included), a palette held across a scene so still parts never
/// shimmer, a new one at a cut, transparency, and a byte budget that is kept.
final class GIFAnimationTests: ScratchDirectoryTestCase {
    struct Picture {
        var width: Int, height: Int
        var rgba: [UInt8]
        init(width: Int, height: Int, fill: (Int, Int) -> SIMD4<UInt8>) {
            self.width = width
            self.height = height
            rgba = []
            rgba.reserveCapacity(width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let p = fill(x, y)
                    rgba += [p.x, p.y, p.z, p.w]
                }
            }
        }
    }

    func write(
        _ pictures: [Picture], fps: Int = 10, maxBytes: Int? = nil, name: String = "out.gif"
    ) throws -> String {
        let path = directory.appendingPathComponent(name).path
        var settings = VideoSettings(
            width: pictures[0].width, height: pictures[0].height, frameRateNumerator: fps,
            frameRateDenominator: 1, codec: .gif)
        settings.maxBytes = maxBytes
        settings.expectedFrames = pictures.count
        let writer = try VideoFileWriter(path: path, settings: settings)
        for picture in pictures {
            try picture.rgba.withUnsafeBufferPointer {
                try writer.append(rgba: $0.baseAddress!, stride: picture.width * 4)
            }
        }
        XCTAssertEqual(try writer.finish(), pictures.count)
        return path
    }

    /// 250 colours, one per 5-bit histogram cell, are a palette the writer keeps exactly; random
    /// pixels of them make LZW fill its 4096-entry table and clear it many times.
    func testLZWRoundTripsExactlyThroughFFmpeg() throws {
        var random = SplitMix(state: 40)
        var colors: [SIMD4<UInt8>] = []
        for i in 0..<250 {
            let red = UInt8(i % 8 * 32 + 4), green = UInt8(i / 8 % 8 * 32 + 4), blue = UInt8(i / 64 * 32 + 4)
            colors.append(SIMD4(red, green, blue, 255))
        }
        let pictures = (0..<3).map { _ in
            Picture(width: 256, height: 200) { _, _ in colors[Int(random.next() % 250)] }
        }
        let (info, frames) = try VideoDecodeBack.decodeRGBA(path: try write(pictures))
        XCTAssertEqual(info.codecName, "gif")
        XCTAssertEqual(info.decodeErrors, 0)
        XCTAssertEqual(frames.count, 3)
        for (frame, picture) in zip(frames, pictures) {
            XCTAssertEqual(frame.rgba, picture.rgba, "frame \(frame.index) differs")
        }
    }

    /// A gradient under a moving square, then a cut to other colours: within the first scene
    /// every pixel the square never touches is the same in every frame (no shimmer), later
    /// frames are much smaller than the first, and after the cut the new colours are served
    /// as well as the first scene's.
    func testAStillBackgroundNeverShimmersAndACutGetsItsOwnPalette() throws {
        let width = 160, height = 90
        func gradient(_ x: Int, _ y: Int, warm: Bool) -> SIMD4<UInt8> {
            let t = Double(x) / Double(width - 1), u = Double(y) / Double(height - 1)
            let channels: [Double] =
                warm
                ? [200 + 55 * t, 60 + 120 * u, 20 + 40 * t] : [10 + 30 * u, 40 + 100 * t, 120 + 135 * u]
            return SIMD4(UInt8(channels[0]), UInt8(channels[1]), UInt8(channels[2]), 255)
        }
        var pictures: [Picture] = []
        for n in 0..<20 {
            let warm = n >= 10
            pictures.append(
                Picture(width: width, height: height) { x, y in
                    let left = 20 + 8 * (n % 10)
                    let inSquare = x >= left && x < left + 20 && y >= 30 && y < 50
                    return inSquare ? SIMD4(250, 250, 250, 255) : gradient(x, y, warm: warm)
                })
        }
        let path = try write(pictures)
        let (_, frames) = try VideoDecodeBack.decodeRGBA(path: path)
        XCTAssertEqual(frames.count, 20)
        // The square covers x 20..<112 over the scene; everything right of it and above and below it is still.
        for frame in frames[1..<10] {
            for y in 0..<height {
                for x in 0..<width where x >= 120 || y < 28 || y >= 52 {
                    guard frame.pixel(x: x, y: y) == frames[0].pixel(x: x, y: y) else {
                        XCTFail("frame \(frame.index) changed the still pixel \(x),\(y)")
                        return
                    }
                }
            }
        }
        for scene in [0..<10, 10..<20] {
            for n in scene {
                var total = 0.0, count = 0.0
                for y in 0..<height {
                    for x in 0..<width {
                        let got = frames[n].pixel(x: x, y: y)
                        let at = (y * width + x) * 4
                        for c in 0..<3 {
                            total += abs(Double(got[c]) - Double(pictures[n].rgba[at + c]))
                        }
                        count += 3
                    }
                }
                XCTAssertLessThan(total / count, 3, "frame \(n): mean error per channel")
            }
        }
    }

    /// Under half coverage is transparent, and a frame with transparency after opaque ones is
    /// drawn on a clear canvas (the opaque frame before it is disposed of).
    func testTransparencyAfterOpaqueFramesClearsTheCanvas() throws {
        let opaque = Picture(width: 40, height: 30) { _, _ in SIMD4(200, 30, 30, 255) }
        let holed = Picture(width: 40, height: 30) { x, _ in
            x < 20 ? SIMD4(0, 0, 0, 0) : SIMD4(30, 30, 200, 255)
        }
        let (_, frames) = try VideoDecodeBack.decodeRGBA(path: try write([opaque, opaque, holed, opaque]))
        XCTAssertEqual(frames.count, 4)
        XCTAssertEqual(frames[1].pixel(x: 5, y: 5), [200, 30, 30, 255])
        XCTAssertEqual(frames[2].pixel(x: 5, y: 5)[3], 0, "the left half is transparent again")
        XCTAssertEqual(frames[2].pixel(x: 30, y: 5), [30, 30, 200, 255])
        XCTAssertEqual(frames[3].pixel(x: 5, y: 5), [200, 30, 30, 255])
    }

    /// Noise every frame cannot fit 60 kB at full rate: frames are left out, the file keeps
    /// within the budget and the animation its length.
    func testAByteBudgetIsKept() throws {
        var random = SplitMix(state: 7)
        let pictures = (0..<40).map { _ in
            Picture(width: 120, height: 80) { _, _ in
                let v = random.next()
                return SIMD4(UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), 255)
            }
        }
        let path = try write(pictures, maxBytes: 60_000)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertLessThanOrEqual(size, 60_000)
        let (info, frames) = try VideoDecodeBack.decodeRGBA(path: path)
        XCTAssertGreaterThan(frames.count, 1)
        XCTAssertLessThan(frames.count, 40)
        XCTAssertEqual(info.containerDurationSeconds, 4, accuracy: 0.02)

        XCTAssertThrowsError(try write(Array(pictures.prefix(2)), maxBytes: 2_000, name: "tiny.gif")) {
            error in
            XCTAssertTrue("\(error)".contains("the first frame alone takes"), "\(error)")
        }
    }
}
