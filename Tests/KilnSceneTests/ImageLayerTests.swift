import Foundation
import KilnModel
import KilnRaster
import KilnScene
import KilnTestSupport
import XCTest

final class ImageLayerTests: XCTestCase {
    /// A w×h image of opaque texels whose red is x·16 and green y·16.
    func gradientImage(width: Int = 16, height: Int = 16) -> RasterImage {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { bytes += [UInt8(x * 16 % 256), UInt8(y * 16 % 256), 0, 255] }
        }
        return RasterImage(width: width, height: height, premultipliedRGBA: bytes)
    }

    func paint(_ painter: ImagePainter?, width: Int, height: Int) -> PlanarBand {
        let band = PlanarBand(width: width, rows: height)
        painter?.paint(into: band, firstRow: 0, rows: height)
        return band
    }

    func testFitModesSizeThePictureInTheBox() {
        let natural = SIMD2<Double>(400, 200)
        let box = SIMD2<Double>(100, 100)
        XCTAssertEqual(ImageLayer.Fit.fill.drawnSize(natural: natural, box: box), SIMD2(200, 100))
        XCTAssertEqual(ImageLayer.Fit.fit.drawnSize(natural: natural, box: box), SIMD2(100, 50))
        XCTAssertEqual(ImageLayer.Fit.stretch.drawnSize(natural: natural, box: box), box)
        XCTAssertEqual(ImageLayer.Fit.none.drawnSize(natural: natural, box: box), natural)
    }

    func testUntransformedImageReproducesItsTexelsExactly() {
        let image = gradientImage()
        let painter = ImagePainter(
            image: image, frameFromImage: .translation(2, 3), visible: (SIMD2(0, 0), SIMD2(16, 16)),
            frameWidth: 24, frameHeight: 24)
        let band = paint(painter, width: 24, height: 24)
        for y in 0..<16 {
            for x in 0..<16 {
                let p = band.pixel(x: x + 2, row: y + 3)
                XCTAssertEqual(p.r * 255, Float(x * 16), accuracy: 1e-3)
                XCTAssertEqual(p.g * 255, Float(y * 16), accuracy: 1e-3)
                XCTAssertEqual(p.a, 1, accuracy: 1e-6)
            }
        }
        XCTAssertEqual(band.pixel(x: 1, row: 10).a, 0, accuracy: 1e-6)
        XCTAssertEqual(band.pixel(x: 18, row: 10).a, 0, accuracy: 1e-6)
    }

    func testBilinearSamplingAtHalfTexelOffsetsAveragesNeighbours() {
        let image = gradientImage()
        let painter = ImagePainter(
            image: image, frameFromImage: .translation(0.5, 0), visible: (SIMD2(0, 0), SIMD2(16, 16)),
            frameWidth: 20, frameHeight: 16)
        let band = paint(painter, width: 20, height: 16)
        // Pixel 5's centre (5.5) is texel coordinate 5.0: halfway between texels 4 and 5.
        XCTAssertEqual(band.pixel(x: 5, row: 4).r * 255, 72, accuracy: 1e-3)
        XCTAssertEqual(band.pixel(x: 0, row: 4).a, 0.5, accuracy: 1e-5, "half-covered edge pixel")
    }

    /// The SIMD sampler against plain scalar bilinear filtering of the same texels, under a
    /// rotation and a slight enlargement, away from the edges (whose coverage is tested apart).
    func testSamplingMatchesAScalarBilinearReference() {
        var generator = SplitMix(state: 2026)
        var bytes: [UInt8] = []
        for _ in 0..<(32 * 32) {
            let a = UInt8.random(in: 0...255, using: &generator)
            bytes += [UInt8.random(in: 0...a), UInt8.random(in: 0...a), UInt8.random(in: 0...a), a]
        }
        let image = RasterImage(width: 32, height: 32, premultipliedRGBA: bytes)
        let place = Affine2D.translation(30, 8).concatenating(.rotation(sin: 0.38, cos: 0.925))
            .concatenating(.scale(1.3, 1.3))
        let band = paint(
            ImagePainter(
                image: image, frameFromImage: place, visible: (SIMD2(0, 0), SIMD2(32, 32)), frameWidth: 80,
                frameHeight: 80), width: 80, height: 80)
        let inverse = place.inverted!
        func texel(_ x: Int, _ y: Int, _ c: Int) -> Double {
            Double(bytes[(min(max(y, 0), 31) * 32 + min(max(x, 0), 31)) * 4 + c])
        }
        var checked = 0
        for y in 0..<80 {
            for x in 0..<80 {
                let p = inverse.apply(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
                guard p.x > 1.5, p.y > 1.5, p.x < 30.5, p.y < 30.5 else { continue }
                let u = p.x - 0.5, v = p.y - 0.5
                let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
                let fx = u - Double(x0), fy = v - Double(y0)
                let got = band.pixel(x: x, row: y)
                for (c, value) in [got.r, got.g, got.b, got.a].enumerated() {
                    let top = texel(x0, y0, c) * (1 - fx) + texel(x0 + 1, y0, c) * fx
                    let bottom = texel(x0, y0 + 1, c) * (1 - fx) + texel(x0 + 1, y0 + 1, c) * fx
                    let expected = top * (1 - fy) + bottom * fy
                    // 8-bit weights and integer results: within a code value and a half.
                    XCTAssertEqual(Double(value) * 255, expected, accuracy: 1.5, "(\(x), \(y)) channel \(c)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 1000)
    }

    /// A level's texel is its 2×2 mean rounded to nearest, halves to even, so the levels keep
    /// the picture's mean brightness: rounding halves up made each level 1/8 code value brighter
    /// than the one below (3/8 at level 3).
    func testMipLevelsRoundHalvesToEvenAndKeepTheMean() {
        // Means of 0.5 and 1.5: to 0 and to 2.
        let halves = RasterImage(
            width: 2, height: 2, premultipliedRGBA: [0, 1, 0, 255, 0, 1, 0, 255, 1, 2, 0, 255, 1, 2, 0, 255])
        XCTAssertEqual(halves.texel(x: 0, y: 0, level: 1), SIMD4(0, 2, 0, 255))
        var state: UInt64 = 12_345
        var bytes: [UInt8] = []
        for _ in 0..<(128 * 128) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes += [UInt8(truncatingIfNeeded: state >> 33), UInt8(truncatingIfNeeded: state >> 41), 0, 255]
        }
        let image = RasterImage(width: 128, height: 128, premultipliedRGBA: bytes)
        func mean(level: Int, channel: Int) -> Double {
            let size = 128 >> level
            var sum = 0.0
            for y in 0..<size {
                for x in 0..<size { sum += Double(image.texel(x: x, y: y, level: level)[channel]) }
            }
            return sum / Double(size * size)
        }
        for channel in 0..<2 {
            XCTAssertEqual(mean(level: 3, channel: channel), mean(level: 0, channel: channel), accuracy: 0.1)
        }
    }

    func testMipLevelsAverageTwoByTwoAndShrinkingSamplesThem() {
        // A 1-pixel checkerboard: every level above 0 is mid-grey.
        var bytes: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<64 {
                let v: UInt8 = (x + y) % 2 == 0 ? 255 : 0
                bytes += [v, v, v, 255]
            }
        }
        let image = RasterImage(width: 64, height: 64, premultipliedRGBA: bytes)
        XCTAssertEqual(image.levels.map(\.width), [64, 32, 16, 8, 4, 2, 1])
        XCTAssertEqual(image.texel(x: 3, y: 5, level: 1), SIMD4(128, 128, 128, 255))
        // Shrunk 4× (and rotated a little), the board must come out grey, not aliased stripes.
        let place = Affine2D.translation(4, 4).concatenating(.rotation(sin: 0.05, cos: 0.99875))
            .concatenating(.scale(0.25, 0.25))
        let band = paint(
            ImagePainter(
                image: image, frameFromImage: place, visible: (SIMD2(0, 0), SIMD2(64, 64)), frameWidth: 24,
                frameHeight: 24), width: 24, height: 24)
        for y in 8..<16 {
            for x in 8..<16 {
                XCTAssertEqual(band.pixel(x: x, row: y).r, 0.5, accuracy: 0.02)
            }
        }
    }

    func testLevelChoiceIsContinuousInTheShrink() {
        var previous: Double = 0
        for step in 1...400 {
            let shrink = Double(step) / 40
            let (level, weight) = ImagePainter.levelChoice(shrink: shrink, levelCount: 12)
            let lod = Double(level) + Double(weight)
            XCTAssertGreaterThanOrEqual(lod, previous - 1e-9)
            XCTAssertLessThan(lod - previous, 0.06)
            previous = lod
        }
    }

    /// Within the first eighth of an octave one level is read alone, past it the blend towards the
    /// next rises from 0 to 1: at most `singleLevelBand` (and the 1/512 skip) away from exact
    /// trilinear filtering's weight.
    func testLevelChoiceReadsOneLevelInTheSingleLevelBand() {
        XCTAssertEqual(ImagePainter.levelChoice(shrink: 1.0204, levelCount: 8).nextWeight, 0)
        XCTAssertEqual(ImagePainter.levelChoice(shrink: 1.12, levelCount: 8).nextWeight, 0)
        XCTAssertEqual(ImagePainter.levelChoice(shrink: 2.2, levelCount: 8).nextWeight, 0)
        XCTAssertEqual(ImagePainter.levelChoice(shrink: 2.2, levelCount: 8).level, 1)
        let half = ImagePainter.levelChoice(shrink: 1.5, levelCount: 8)
        XCTAssertEqual(half.level, 0)
        XCTAssertEqual(Double(half.nextWeight), (0.5 - 0.125) / 0.875, accuracy: 1e-6)
        XCTAssertEqual(
            Double(ImagePainter.levelChoice(shrink: 1.999, levelCount: 8).nextWeight), 1, accuracy: 0.002)
    }

    /// The painter against exact (Double) filtering of the same levels, rotated and shrunk across
    /// the single-level band and the blend: within a code value and a half of the filter it
    /// implements, and within `singleLevelBand` (+ 1/512) of the two levels' difference, plus
    /// that code value and a half, of exact trilinear filtering.
    func testMildShrinkStaysWithinTheStatedBoundOfExactTrilinearFiltering() {
        var generator = SplitMix(state: 77)
        var bytes: [UInt8] = []
        for _ in 0..<(64 * 64) {
            let a = UInt8.random(in: 0...255, using: &generator)
            bytes += [UInt8.random(in: 0...a), UInt8.random(in: 0...a), UInt8.random(in: 0...a), a]
        }
        let image = RasterImage(width: 64, height: 64, premultipliedRGBA: bytes)
        let band = ImagePainter.singleLevelBand
        func bilinear(_ u: Double, _ v: Double, level: Int, channel: Int) -> Double {
            let size = image.levels[level]
            let scale = 1 / Double(1 << level)
            let su = min(max(u * scale - 0.5, 0), Double(size.width - 1))
            let sv = min(max(v * scale - 0.5, 0), Double(size.height - 1))
            let x0 = Int(su.rounded(.down)), y0 = Int(sv.rounded(.down))
            let fx = su - Double(x0), fy = sv - Double(y0)
            func texel(_ x: Int, _ y: Int) -> Double {
                Double(
                    image.texel(x: min(x, size.width - 1), y: min(y, size.height - 1), level: level)[channel])
            }
            let top = texel(x0, y0) * (1 - fx) + texel(x0 + 1, y0) * fx
            let bottom = texel(x0, y0 + 1) * (1 - fx) + texel(x0 + 1, y0 + 1) * fx
            return top * (1 - fy) + bottom * fy
        }
        var checked = 0, apart = 0
        for shrink in [1.01, 1.0204, 1.08, 1.12, 1.2, 1.45, 1.8, 2.1, 2.6] {
            // The piecewise-linear log2 of `levelChoice`, the exact trilinear weight, and the
            // weight this filter uses.
            var lod = 0.0, s = shrink
            while s >= 2 {
                s /= 2
                lod += 1
            }
            lod += s - 1
            let level = Int(lod.rounded(.down)), fraction = lod - Double(level)
            var weight = fraction > band ? (fraction - band) / (1 - band) : 0
            if weight < 1.0 / 512 { weight = 0 }
            let size = Int((64 / shrink).rounded(.up)) + 8
            let place = Affine2D.translation(4, 4).concatenating(.rotation(sin: 0.2, cos: 0.98))
                .concatenating(.scale(1 / shrink, 1 / shrink))
            let painted = paint(
                ImagePainter(
                    image: image, frameFromImage: place, visible: (SIMD2(0, 0), SIMD2(64, 64)),
                    frameWidth: size, frameHeight: size), width: size, height: size)
            let inverse = place.inverted!
            for y in 0..<size {
                for x in 0..<size {
                    let p = inverse.apply(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
                    guard p.x > 4, p.y > 4, p.x < 60, p.y < 60 else { continue }
                    let got = painted.pixel(x: x, row: y)
                    for (c, value) in [got.r, got.g, got.b, got.a].enumerated() {
                        let lower = bilinear(p.x, p.y, level: level, channel: c)
                        let upper = bilinear(p.x, p.y, level: level + 1, channel: c)
                        let filter = lower + (upper - lower) * weight
                        let trilinear = lower + (upper - lower) * fraction
                        let code = Double(value) * 255
                        XCTAssertEqual(
                            code, filter, accuracy: 1.5, "shrink \(shrink) (\(x), \(y)) channel \(c)")
                        XCTAssertEqual(
                            code, trilinear, accuracy: (band + 1.0 / 512) * abs(upper - lower) + 1.5,
                            "shrink \(shrink) (\(x), \(y)) channel \(c)")
                        if abs(filter - trilinear) > 3 { apart += 1 }
                    }
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 10_000)
        // The bound is not empty: in the band the filter does move away from trilinear.
        XCTAssertGreaterThan(apart, 100)
    }

    /// The edge of a rotated image is anti-aliased like a shape's: coverage tracks the exact area.
    func testRotatedImageEdgeCoverageMatchesTheArea() {
        var bytes = [UInt8](repeating: 255, count: 64 * 64 * 4)
        bytes.withUnsafeMutableBufferPointer { _ in }
        let image = RasterImage(width: 64, height: 64, premultipliedRGBA: bytes)
        let angle = 0.3
        let place = Affine2D.translation(40, 20).concatenating(.rotation(sin: sin(angle), cos: cos(angle)))
        let band = paint(
            ImagePainter(
                image: image, frameFromImage: place, visible: (SIMD2(0, 0), SIMD2(64, 64)), frameWidth: 120,
                frameHeight: 120), width: 120, height: 120)
        var total: Float = 0
        for y in 0..<120 { for x in 0..<120 { total += band.pixel(x: x, row: y).a } }
        XCTAssertEqual(total, 64 * 64, accuracy: 64 * 64 * 0.002)
    }

    func testImageLayerDecodesThroughTheDecoderAndResizesOnceAtLoad() throws {
        let decoder = RecordingDecoder(image: gradientImage(width: 64, height: 32))
        let job = try LayerRegistry.decode(
            bytes: Array(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "layers": [{"type": "image", "path": "\(Fixture.repositoryRoot.path)/jobs/photos/ocean.png",
                             "size": [32, 32], "fit": "fill"}]}
                """.utf8), file: "t.json", baseDirectory: URL(fileURLWithPath: "/tmp"), images: decoder)
        XCTAssertEqual(decoder.requests.value, [SIMD2(64, 32)], "fill covers 32×32 with a 2:1 picture: 64×32")
        let layer = try XCTUnwrap(job.layers.first?.content as? ImageLayer)
        XCTAssertEqual(layer.naturalSize, SIMD2(128, 64))
    }

    /// Decodes a one-image job with a failing decoder; the error's text and exit code.
    func failure(imagePath: String) -> (text: String, exitCode: Int32?) {
        let json = """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
             "layers": [{"type": "image", "path": "\(imagePath)"}]}
            """
        do {
            _ = try LayerRegistry.decode(
                bytes: Array(json.utf8), file: "t.json", baseDirectory: URL(fileURLWithPath: "/tmp"),
                images: FailingDecoder())
            XCTFail("expected an error")
            return ("", nil)
        } catch {
            return ("\(error)", error.exitCode)
        }
    }

    func testImageLayerWithAFailingDecoderReportsThePath() {
        let (text, code) = failure(imagePath: "\(Fixture.repositoryRoot.path)/jobs/photos/ocean.png")
        XCTAssertTrue(text.contains("layers[0].path: broken picture"), text)
        XCTAssertEqual(code, 65)
    }

    func testMissingImageIsANoInputErrorNamingFileAndPath() {
        let (text, code) = failure(imagePath: "nowhere/photo.png")
        XCTAssertTrue(text.contains("layers[0].path: file not found: nowhere/photo.png"), text)
        XCTAssertEqual(code, 66)
    }
}

final class RecordingDecoder: ImageDecoding, @unchecked Sendable {
    let image: RasterImage
    let requests = Locked<[SIMD2<Int>]>([])

    init(image: RasterImage) { self.image = image }

    func imageSize(at url: URL) throws -> SIMD2<Int> { SIMD2(128, 64) }

    func decodeImage(at url: URL, resizedTo size: SIMD2<Int>?) throws -> RasterImage {
        if let size { requests.mutate { $0.append(size) } }
        return image
    }
}

struct FailingDecoder: ImageDecoding {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "broken picture" }
    }

    func imageSize(at url: URL) throws -> SIMD2<Int> { throw Broken() }
    func decodeImage(at url: URL, resizedTo size: SIMD2<Int>?) throws -> RasterImage { throw Broken() }
}

final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
