import KilnTestSupport
import XCTest

@testable import KilnRaster

/// `ReducedGrid.enlarge` against bilinear interpolation written out pixel by pixel from the
/// grid's definition, with opaque sample rows (whose alpha the enlargement leaves out) next to
/// rows with some transparency.
final class ReducedGridTests: XCTestCase {
    func testEnlargementIsBilinearBetweenTheSamples() {
        for factor in [2, 4] {
            // A region that starts and ends off the chunk grid, in a frame wider than it.
            let columns = 13..<203, rows = 5..<61
            let grid = ReducedGrid(factor: factor, rows: rows, columns: columns)
            let samples = PlanarBand(width: grid.columns + 16, rows: grid.rows)
            var random = SplitMix(state: UInt64(factor))
            func unit() -> Float { Float(random.next() % 10_001) / 10_000 }
            for i in 0..<grid.rows {
                // Every third row has one translucent sample; the others are opaque.
                let translucent = i % 3 == 1 ? Int(random.next() % UInt64(grid.columns)) : -1
                for j in 0..<grid.columns {
                    let a: Float = j == translucent ? 0.5 : 1
                    let p = i * samples.stride + j
                    (samples.r[p], samples.g[p], samples.b[p], samples.a[p]) = (
                        unit() * a, unit() * a, unit() * a, a
                    )
                }
            }
            let band = PlanarBand(width: 224, rows: rows.count)
            let scratch = PlanarBand(width: 224, rows: 2)
            grid.enlarge(
                samples, into: band, firstRow: rows.lowerBound, rows: rows, columns: columns, scratch: scratch
            )
            for y in rows {
                let ty = Float(2 * (y - grid.originY) + 1 + factor) / Float(2 * factor)
                let i = Int(ty), wy = ty - Float(i)
                for x in columns {
                    let tx = Float(2 * (x - grid.originX) + 1 + factor) / Float(2 * factor)
                    let j = Int(tx), wx = tx - Float(j)
                    for plane in 0..<4 {
                        let s = samples.plane(plane)
                        func across(_ row: Int) -> Float {
                            let left = s[row * samples.stride + j], right = s[row * samples.stride + j + 1]
                            return left + (right - left) * wx
                        }
                        let top = across(i), bottom = across(i + 1)
                        let expected = top + (bottom - top) * wy
                        let got = band.plane(plane)[(y - rows.lowerBound) * band.stride + x]
                        XCTAssertEqual(got, expected, "factor \(factor), (\(x), \(y)), plane \(plane)")
                    }
                }
            }
        }
    }
}
