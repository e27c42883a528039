import Foundation
import KilnModel
import KilnRaster
import KilnScene
import KilnTestSupport
import KilnText
import XCTest

/// The whole-pixel compositing path of `ImagePainter` against the bilinear sampler, and text
/// pictures drawn blurred once against blurring them where they are composited.
final class WholePixelCompositingTests: XCTestCase {
    /// Random premultiplied texels with transparent rows, columns and runs, as text pictures have.
    func randomImage(width: Int, height: Int, seed: UInt64) -> RasterImage {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let empty = y % 7 == 3 || (x / 9) % 3 == 1 || next() % 4 == 0
                let a = empty ? 0 : UInt8(next() % 256)
                bytes += [
                    UInt8(next() % (UInt64(a) + 1)), UInt8(next() % (UInt64(a) + 1)),
                    UInt8(next() % (UInt64(a) + 1)), a,
                ]
            }
        }
        return RasterImage(width: width, height: height, premultipliedRGBA: bytes)
    }

    func planes(_ band: PlanarBand, rows: Int) -> [Float] {
        var out: [Float] = []
        for plane in [band.r, band.g, band.b, band.a] {
            out += (0..<(band.stride * rows)).map { plane[$0] }
        }
        return out
    }

    /// At whole-pixel offsets the row-wise path gives the bilinear path's floats: over a
    /// background and replacing, faded, tinted, cut to a whole-pixel rectangle and to a window
    /// of columns, in bands that start anywhere.
    func testWholePixelPathMatchesTheBilinearSampler() {
        let (width, height) = (160, 48)
        for (seed, size) in [(1, SIMD2(61, 23)), (2, SIMD2(7, 5)), (3, SIMD2(120, 40))] {
            let image = randomImage(width: size.x, height: size.y, seed: UInt64(seed))
            for (shift, visible) in [
                (SIMD2<Double>(37, 11), (SIMD2<Double>(0, 0), SIMD2(Double(size.x), Double(size.y)))),
                (SIMD2<Double>(-5, -3), (SIMD2<Double>(2, 1), SIMD2<Double>(30, 19))),
                (SIMD2<Double>(150, 40), (SIMD2<Double>(0, 0), SIMD2(Double(size.x), Double(size.y)))),
            ] {
                guard
                    let painter = ImagePainter(
                        image: image, frameFromImage: .translation(shift.x, shift.y), visible: visible,
                        frameWidth: width, frameHeight: height)
                else { continue }
                XCTAssertTrue(painter.isWholePixel)
                for (over, window) in [(true, nil), (false, nil), (true, 40..<97), (false, 3..<50)]
                    as [(Bool, Range<Int>?)]
                {
                    for first in stride(from: 0, to: height, by: 8) {
                        let whole = PlanarBand.compositingBackground(width: width, rows: 8)
                        let bilinear = PlanarBand.compositingBackground(width: width, rows: 8)
                        for (band, allowed) in [(whole, true), (bilinear, false)] {
                            painter.paint(
                                into: band, firstRow: first, rows: 8, columns: window, over: over,
                                opacity: 0.7,
                                tint: SIMD4(0.25, 0.5, 0.75, 0.8), wholePixels: allowed)
                        }
                        // Outside the window the bands' contents are unspecified when replacing.
                        var largest: Float = 0
                        for row in 0..<8 {
                            for x in (over || window == nil) ? 0..<width : window! {
                                let a = whole.pixel(x: x, row: row).simd,
                                    b = bilinear.pixel(x: x, row: row).simd
                                largest = max(largest, (a - b).max(), (b - a).max())
                            }
                        }
                        // Equal but for the bilinear path's edge coverage, whose square root is
                        // approximate (coverage 1 ± 10⁻⁷ next to the visible rectangle's edges).
                        XCTAssertLessThanOrEqual(largest, 1e-6, "seed \(seed) shift \(shift) rows \(first)")
                    }
                }
            }
        }
    }

    /// Moved by whole pixels across and any amount down (a scrolling list), each row blends two
    /// texel rows without gathers: the bilinear sampler's floats again, including rows cut by
    /// a visible rectangle with fractional top and bottom (those rows go the bilinear way).
    func testScrolledPicturesMatchTheBilinearSampler() {
        let (width, height) = (160, 48)
        let image = randomImage(width: 61, height: 23, seed: 5)
        for dy in [0.3, 0.5, 0.998, 11.0017, -4.75] {
            for visible in [
                (SIMD2<Double>(0, 0), SIMD2<Double>(61, 23)),
                (SIMD2<Double>(3, 1.4), SIMD2<Double>(50, 18.7)),
            ] {
                let painter = ImagePainter(
                    image: image, frameFromImage: .translation(37, 11 + dy), visible: visible,
                    frameWidth: width, frameHeight: height)!
                XCTAssertFalse(painter.isWholePixel)
                for over in [true, false] {
                    for first in stride(from: 0, to: height, by: 8) {
                        let fast = PlanarBand.compositingBackground(width: width, rows: 8),
                            bilinear = PlanarBand.compositingBackground(width: width, rows: 8)
                        for (band, allowed) in [(fast, true), (bilinear, false)] {
                            painter.paint(
                                into: band, firstRow: first, rows: 8, over: over, opacity: 0.9,
                                tint: SIMD4(0.5, 0.5, 1, 1), wholePixels: allowed)
                        }
                        var largest: Float = 0
                        for row in 0..<8 {
                            for x in 0..<width {
                                let a = fast.pixel(x: x, row: row).simd,
                                    b = bilinear.pixel(x: x, row: row).simd
                                largest = max(largest, (a - b).max(), (b - a).max())
                            }
                        }
                        XCTAssertLessThanOrEqual(largest, 1e-6, "dy \(dy) visible \(visible) rows \(first)")
                    }
                }
            }
        }
    }

    func testFractionalOffsetsAndScalesAreNotWholePixel() {
        let image = randomImage(width: 10, height: 10, seed: 4)
        let whole = (min: SIMD2<Double>(0, 0), max: SIMD2<Double>(10, 10))
        XCTAssertFalse(
            ImagePainter(
                image: image, frameFromImage: .translation(3.5, 2), visible: whole, frameWidth: 40,
                frameHeight: 40)!.isWholePixel)
        XCTAssertFalse(
            ImagePainter(
                image: image, frameFromImage: .translation(3, 2).concatenating(.scale(1.5, 1.5)),
                visible: whole,
                frameWidth: 40, frameHeight: 40)!.isWholePixel)
        XCTAssertFalse(
            ImagePainter(
                image: image, frameFromImage: .translation(3, 2), visible: (SIMD2(0.5, 0), SIMD2(10, 10)),
                frameWidth: 40, frameHeight: 40)!.isWholePixel)
    }

    /// A text picture drawn blurred once (what the transcript keeps for its faded lines) equals
    /// the picture blurred where it is composited, to the 8-bit rounding of the kept texels.
    func testBlurredPictureEqualsBlurringThePicture() throws {
        let library = try FontLibrary.shared()
        let layout = try TextLayout(
            text: "Blurred once, kept", font: FontDescriptor(family: "Noto Sans"), size: 30, library: library)
        let picture = TextImage(layout, margin: 15)
        for radius in [1.0, 2.0, 5.0] {
            let blurred = picture.blurred(radius: radius)
            let image = try XCTUnwrap(picture.coverage), kept = try XCTUnwrap(blurred.coverage)
            XCTAssertNil(blurred.color)
            let (width, height) = (image.width + 80, image.height + 80)
            // Fresh: the picture at (40, 40) in a transparent frame, blurred there.
            let fresh = PlanarBand(width: width, rows: height)
            ImagePainter(
                image: image, frameFromImage: .translation(40, 40),
                visible: (.zero, SIMD2(Double(image.width), Double(image.height))), frameWidth: width,
                frameHeight: height)!
                .paint(into: fresh, firstRow: 0, rows: height)
            GaussianBlur(radius: radius).apply(to: fresh, rowCount: height, columns: 0..<width)
            // Kept: the blurred picture placed where its offset says.
            let shift = blurred.offset &- picture.offset
            let drawn = PlanarBand(width: width, rows: height)
            ImagePainter(
                image: kept, frameFromImage: .translation(Double(40 + shift.x), Double(40 + shift.y)),
                visible: (.zero, SIMD2(Double(kept.width), Double(kept.height))), frameWidth: width,
                frameHeight: height)!
                .paint(into: drawn, firstRow: 0, rows: height)
            var worst: Float = 0
            for row in 0..<height {
                for x in 0..<width {
                    let a = fresh.pixel(x: x, row: row).simd, b = drawn.pixel(x: x, row: row).simd
                    worst = max(worst, (a - b).max(), (b - a).max())
                }
            }
            XCTAssertLessThanOrEqual(worst, 0.5 / 255 + 1e-5, "radius \(radius)")
            XCTAssertEqual(picture.blurred(radius: 0).offset, picture.offset, "no blur, the same picture")
        }
    }
}
