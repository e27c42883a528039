import KilnTestSupport
import XCTest

@testable import KilnRaster

/// `ImagePainter`'s shared horizontal filtering of texel rows for axis-aligned pictures
/// (`axisAligned`) against sampling every pixel: the same floats, whatever the scale, flip,
/// level, window, clip and band split.
final class SharedRowFilteringTests: XCTestCase {
    func randomImage(width: Int, height: Int, seed: UInt64) -> RasterImage {
        var random = SplitMix(state: seed)
        func next() -> UInt64 { random.next() }
        var bytes: [UInt8] = []
        for _ in 0..<(width * height) {
            let a = next() % 5 == 0 ? 255 : UInt8(next() % 256)
            bytes += [
                UInt8(next() % (UInt64(a) + 1)), UInt8(next() % (UInt64(a) + 1)),
                UInt8(next() % (UInt64(a) + 1)), a,
            ]
        }
        return RasterImage(width: width, height: height, premultipliedRGBA: bytes)
    }

    /// The sampler's texel pairs, however they are loaded (an AVX-512 gather when the build
    /// defines `KILN_GATHERS`, eight loads otherwise): each lane the texel at its index and the
    /// one after it, at every index of a level, the padding column and last texel included.
    func testTexelPairsAreTheTexelsAtEachIndex() {
        let image = randomImage(width: 37, height: 11, seed: 3)
        for exponent in 0..<2 {
            let level = image.levels[exponent]
            level.texels.withUnsafeBufferPointer { texels in
                let sampler = ImagePainter.Sampler(
                    level: level, texels: texels.baseAddress!, exponent: exponent)
                let count = level.texels.count
                var start = 0
                var checked = 0
                while start < count - 1 {
                    // Indices in a scrambled order, clamped so that each pair lies in the texels.
                    let index = SIMD8<Int32>((0..<8).map { Int32(min(start + ($0 * 5) % 8, count - 2)) })
                    let (left, right) = sampler.pairs(index)
                    for lane in 0..<8 {
                        XCTAssertEqual(left[lane], texels[Int(index[lane])], "texel \(index[lane])")
                        XCTAssertEqual(right[lane], texels[Int(index[lane]) + 1], "texel \(index[lane]) + 1")
                        checked += 1
                    }
                    start += 8
                }
                XCTAssertGreaterThan(checked, count - 8)
            }
        }
    }

    func testSharedRowsGiveTheSampledBytes() {
        let (width, height) = (200, 120)
        let image = randomImage(width: 53, height: 31, seed: 7)
        let clip = RoundedRectPainter(
            size: SIMD2(150, 90), cornerRadius: 17, frameFromLocal: .translation(20, 12),
            fill: SIMD4(1, 1, 1, 1), stroke: SIMD4(), strokeWidth: 0, frameWidth: width, frameHeight: height)
        // Magnified, magnified unevenly, flipped across and down, slightly shrunk at level 0,
        // and shrunk across onto level 1 while magnified down it.
        let maps: [(Affine2D, Bool)] = [
            (Affine2D.translation(3.3, -2.7).concatenating(.scale(4, 4)), true),
            (Affine2D.translation(10.25, 7.5).concatenating(.scale(1.5, 2.5)), true),
            (Affine2D.translation(180.6, 4.1).concatenating(.scale(-3, 3.7)), true),
            (Affine2D.translation(5.2, 110.9).concatenating(.scale(2.2, -3.1)), true),
            (Affine2D.translation(8.4, 9.6).concatenating(.scale(0.9, 1)), true),
            (Affine2D.translation(2.7, 0.3).concatenating(.scale(0.45, 3.3)), true),
            // Rotated: not axis-aligned, the sampler alone.
            (
                Affine2D.translation(100, 10).concatenating(.rotation(sin: 0.3, cos: 0.954)).concatenating(
                    .scale(3, 3)),
                false
            ),
        ]
        var checked = 0
        for (map, aligned) in maps {
            for visible in [
                (SIMD2<Double>(0, 0), SIMD2<Double>(53, 31)),
                (SIMD2<Double>(2.5, 1.25), SIMD2<Double>(40.5, 27)),
            ] {
                guard
                    let painter = ImagePainter(
                        image: image, frameFromImage: map, visible: visible, frameWidth: width,
                        frameHeight: height)
                else {
                    XCTFail("nothing visible")
                    continue
                }
                XCTAssertEqual(painter.axisAligned, aligned)
                for (over, window, clipped) in [
                    (false, nil, false), (true, nil, false), (true, 37..<151, false), (false, 11..<90, true),
                    (true, nil, true),
                ] as [(Bool, Range<Int>?, Bool)] {
                    for bandHeight in [16, 13] {
                        for first in stride(from: 0, to: height, by: bandHeight) {
                            let rows = min(bandHeight, height - first)
                            let shared = PlanarBand.compositingBackground(width: width, rows: rows)
                            let sampled = PlanarBand.compositingBackground(width: width, rows: rows)
                            for (band, allowed) in [(shared, true), (sampled, false)] {
                                painter.paint(
                                    into: band, firstRow: first, rows: rows, columns: window,
                                    clip: clipped ? clip : nil, over: over, opacity: over ? 0.8 : 1,
                                    tint: SIMD4(0.5, 0.75, 1, 0.9), sharedRows: allowed)
                            }
                            let columns = window ?? 0..<width
                            for plane in 0..<4 {
                                for y in 0..<rows {
                                    for x in columns {
                                        let i = y * shared.stride + x
                                        let (a, b) = (shared.plane(plane)[i], sampled.plane(plane)[i])
                                        if a.bitPattern != b.bitPattern {
                                            return XCTFail(
                                                "map \(map), row \(first + y), column \(x), plane \(plane): \(a) ≠ \(b)"
                                            )
                                        }
                                        checked += 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 1_000_000)
    }
}
