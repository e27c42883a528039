import KilnTestSupport
import XCTest

@testable import KilnRaster

/// `ReducedGrid.enlarge` against bilinear interpolation written out pixel by pixel from the
/// grid's definition, with opaque sample rows (whose alpha the enlargement leaves out) next to
/// rows with some transparency; `ReducedGrid.markChunks` against its definition.
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

    /// `markChunks` against its definition: chunk k is marked when a cell it interpolates
    /// (8k/factor + 0…2 at factor 4, + 0…4 at factor 2, up to the last cell) misses by more than
    /// the tolerance in its own cell row, or by more than twice it in the row above or below.
    /// Region widths that leave whole groups of eight chunks and a tail.
    func testChunkMarksFollowTheirDefinition() {
        var random = SplitMix(state: 14)
        let tolerance: Float = 1 / 255
        for factor in [2, 4] {
            for width in [40, 197, 256, 403] {
                let grid = ReducedGrid(factor: factor, rows: 0..<24, columns: 8..<(8 + width))
                let lastCell = grid.columns - 2
                // Misses of 0, just under, between and over the two thresholds.
                let levels: [Float] = [0, 0.9, 1.5, 2.5].map { $0 * tolerance }
                let misses = (0..<(grid.rows - 1)).map { _ in
                    (0..<(lastCell + 8)).map { _ in levels[Int(random.next() % 4)] }
                }
                let cells = UnsafeMutablePointer<Float>.allocate(capacity: grid.cellColumns + 8)
                let marks = UnsafeMutablePointer<Float>.allocate(capacity: grid.chunks)
                defer {
                    cells.deallocate()
                    marks.deallocate()
                }
                let reach = factor == 4 ? 2 : 4
                for i in 0..<(grid.rows - 1) {
                    let rows = misses.map { row in
                        let copy = UnsafeMutablePointer<Float>.allocate(capacity: row.count)
                        copy.initialize(from: row, count: row.count)
                        return copy
                    }
                    defer { rows.forEach { $0.deallocate() } }
                    grid.markChunks(
                        cellRow: i, misses: { rows[$0] }, tolerance: tolerance, cells: cells, chunks: marks)
                    for k in 0..<grid.chunks {
                        let base = 8 * k / factor
                        var marked = false
                        for j in base...min(lastCell, base + reach) {
                            for row in max(0, i - 1)...min(grid.rows - 2, i + 1) {
                                let limit = row == i ? tolerance : 2 * tolerance
                                if misses[row][j] > limit { marked = true }
                            }
                        }
                        XCTAssertEqual(
                            marks[k], marked ? 1 : 0,
                            "factor \(factor), width \(width), cell row \(i), chunk \(k)")
                    }
                }
            }
        }
    }
}
