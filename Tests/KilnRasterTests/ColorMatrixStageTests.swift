import KilnTestSupport
import XCTest

@testable import KilnRaster

/// `ColorMatrix.colour(_:count:)`, the colour stage over a batch, against `apply` group by group:
/// the shortcut for matrices without cross terms (each channel scaled, plus a multiple of alpha)
/// must give the very same floats, and every other matrix must take the full product.
final class ColorMatrixStageTests: XCTestCase {
    func testBatchMatchesTheFullProductBitForBit() {
        let matrices: [(String, ColorMatrix)] = [
            // Each channel its own scale and offset, so a term read from the wrong place shows.
            (
                "brightness",
                ColorMatrix(rows: [[1, 0, 0, -0.15], [0, 1, 0, -0.12], [0, 0, 1, -0.09], [0, 0, 0, 1]])
            ),
            (
                "contrast",
                ColorMatrix(rows: [
                    [1.3, 0, 0, -0.15], [0, 1.2, 0, -0.1], [0, 0, 1.1, -0.05], [0, 0, 0, 1],
                ])
            ),
            (
                "opacity",
                ColorMatrix(rows: [[0.4, 0, 0, 0], [0, 0.4, 0, 0], [0, 0, 0.4, 0], [0, 0, 0, 0.4]])
            ),
            ("identity", .identity),
            (
                "saturation",
                ColorMatrix(rows: [
                    [0.79, 0.43, 0.04, 0], [0.13, 1.1, 0.04, 0], [0.13, 0.43, 0.71, 0], [0, 0, 0, 1],
                ])
            ),
            // A single small cross term must not take the shortcut.
            (
                "one cross term",
                ColorMatrix(rows: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0.001, 0, 1]])
            ),
        ]
        var random = SplitMix(state: 9)
        func unit() -> Float { Float(random.next() % 10_001) / 10_000 }
        let groups = StageBatch.groups
        let color = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: 4 * groups)
        let positions = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: 6 * groups)
        let index = UnsafeMutablePointer<SIMD8<Int32>>.allocate(capacity: groups)
        defer {
            color.deallocate()
            positions.deallocate()
            index.deallocate()
        }
        let batch = StageBatch(
            x: positions, y: positions + groups, color: color, scratch: positions + 2 * groups,
            index: index,
            carried: positions + 3 * groups, localX: positions + 4 * groups, localY: positions + 5 * groups,
            pixelLength: 1)
        // The matrices that take the shortcut: those without cross terms.
        let shortcut: Set = ["brightness", "contrast", "opacity", "identity"]
        for (name, matrix) in matrices {
            XCTAssertEqual(matrix.scalesChannels, shortcut.contains(name), name)
            var expected: [SIMD8<Float>] = []
            for k in 0..<groups {
                var (r, g, b, a) = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
                for l in 0..<8 {
                    a[l] = unit()
                    (r[l], g[l], b[l]) = (unit() * a[l], unit() * a[l], unit() * a[l])
                }
                (color[4 * k], color[4 * k + 1], color[4 * k + 2], color[4 * k + 3]) = (r, g, b, a)
                matrix.apply(&r, &g, &b, &a)
                expected += [r, g, b, a]
            }
            matrix.color(batch, count: groups)
            for i in 0..<(4 * groups) {
                XCTAssertEqual(
                    unsafeBitCast(color[i], to: SIMD8<UInt32>.self),
                    unsafeBitCast(expected[i], to: SIMD8<UInt32>.self),
                    "\(name), group \(i / 4), channel \(i % 4)")
            }
        }
    }
}
