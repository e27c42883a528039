import KilnTestSupport
import XCTest

@testable import KilnRaster

final class ShadingLatticeTests: XCTestCase {
    /// A jittered grid of 24-pixel quads over the whole `width` × `height` frame, opaque, coloured
    /// by a smooth (curved) function of position with features `scale` pixels across, as a mesh
    /// gradient's tessellation is; with its kinks (every edge between two triangles).
    private func tilingMesh(
        width: Int, height: Int, scale: Double = 1000, seed: UInt64 = 3, alpha: Float = 1
    ) -> (GouraudMesh, [ShadingLattice.Kink]) {
        var rng = SplitMix(state: seed)
        let columns = max(2, width / 24), rows = max(2, height / 24)
        var grid: [[GouraudMesh.Vertex]] = []
        func vertex(_ p: SIMD2<Float>) -> GouraudMesh.Vertex {
            let u = Double(p.x) / scale, v = Double(p.y) / scale
            let r = 0.5 + 0.45 * sin(3.1 * u + 1.3 * v), g = 0.5 + 0.4 * cos(2.3 * v - 1.7 * u * u)
            let b = 0.5 + 0.5 * sin(u * v)
            let a = Double(alpha)
            return .init(x: p.x, y: p.y, color: SIMD4(Float(r * a), Float(g * a), Float(b * a), alpha))
        }
        for j in 0...rows {
            var row: [GouraudMesh.Vertex] = []
            for i in 0...columns {
                var p = SIMD2(
                    Float(i) / Float(columns) * Float(width), Float(j) / Float(rows) * Float(height))
                if i > 0 && i < columns { p.x += Float.random(in: -5...5, using: &rng) }
                if j > 0 && j < rows { p.y += Float.random(in: -5...5, using: &rng) }
                row.append(vertex(p))
            }
            grid.append(row)
        }
        var mesh = GouraudMesh()
        var kinks: [ShadingLattice.Kink] = []
        func kink(
            _ a: GouraudMesh.Vertex, _ b: GouraudMesh.Vertex, _ t: [GouraudMesh.Vertex],
            _ u: [GouraudMesh.Vertex]
        ) {
            // The gradients as the mesh solves them for its planes.
            var solver = GouraudMesh()
            guard let g = solver.addTriangle(t[0], t[1], t[2]), let h = solver.addTriangle(u[0], u[1], u[2])
            else { return }
            kinks.append(
                .init(from: SIMD2(a.x, a.y), to: SIMD2(b.x, b.y), slopeJump: GouraudMesh.slopeJump(g, h)))
        }
        for j in 0..<rows {
            for i in 0..<columns {
                let p00 = grid[j][i], p10 = grid[j][i + 1], p01 = grid[j + 1][i], p11 = grid[j + 1][i + 1]
                mesh.addTriangle(p00, p10, p01)
                mesh.addTriangle(p10, p11, p01)
                kink(p10, p01, [p00, p10, p01], [p10, p11, p01])
                if i + 1 < columns { kink(p10, p11, [p10, p11, p01], [p10, grid[j][i + 2], p11]) }
                if j + 1 < rows { kink(p01, p11, [p10, p11, p01], [p01, p11, grid[j + 2][i]]) }
            }
        }
        mesh.bin(bandHeight: 8, frameHeight: height)
        return (mesh, kinks)
    }

    private func painted(
        width: Int, height: Int, under: PremultipliedColor = .transparent,
        _ paint: (PlanarBand, Int, Int) -> Void
    ) -> PlanarBand {
        let image = PlanarBand(width: width, rows: height)
        image.fill(under, rows: height)
        var first = 0
        while first < height {
            let rows = min(8, height - first)
            paint(image.rows(from: first, count: rows), first, rows)
            first += rows
        }
        return image
    }

    /// The largest and the mean difference of any channel, in code values, over `rows`.
    private func largestDifference(_ a: PlanarBand, _ b: PlanarBand, width: Int, rows: [Int]) -> (
        Float, Double
    ) {
        var largest: Float = 0, sum = 0.0
        for row in rows {
            for x in 0..<width {
                let p = a.pixel(x: x, row: row), q = b.pixel(x: x, row: row)
                let d = max(abs(p.r - q.r), abs(p.g - q.g), abs(p.b - q.b), abs(p.a - q.a))
                largest = max(largest, d)
                sum += Double(d)
            }
        }
        return (largest * 255, sum * 255 / Double(max(1, width * rows.count)))
    }

    /// The lattice's pixels against the triangles' own, on frames whose sizes are and are not
    /// multiples of the spacing (the last cells end at the frame's last pixel) and on a mesh whose
    /// colours turn every few pixels: within half a code value, as the kinks' slopes promise.
    func testTheLatticeMatchesTheTrianglesWithinHalfACodeValue() throws {
        for (width, height, scale) in [(640, 360, 1000.0), (203, 117, 1000), (64, 17, 1000), (320, 184, 5)] {
            let (mesh, kinks) = tilingMesh(width: width, height: height, scale: scale)
            let lattice = try XCTUnwrap(
                ShadingLattice(mesh: mesh, width: width, height: height, kinks: kinks))
            let triangles = painted(width: width, height: height) { band, first, rows in
                mesh.paint(into: band, firstRow: first, rows: rows)
            }
            let shaded = painted(width: width, height: height) { band, first, rows in
                lattice.paint(into: band, firstRow: first, rows: rows, columns: 0..<width)
            }
            // Colours that turn every few pixels leave only the cells inside triangles.
            XCTAssertGreaterThan(
                lattice.shadedShare, scale > 100 ? 0.5 : 0.05, "\(width)×\(height): cells shaded")
            let rows = Array(0..<height)
            let (largest, mean) = largestDifference(triangles, shaded, width: width, rows: rows)
            XCTAssertLessThan(largest, 0.5, "\(width)×\(height): largest difference in code values")
            XCTAssertLessThan(mean, 0.02, "\(width)×\(height): mean difference in code values")
        }
    }

    /// The cells a sharp kink crosses are left to the triangles, and only those: a kink from
    /// (130, 50) to (100, 70) crosses, in the band of cell row 6 (pixel centres 48.5…56.5), x
    /// from 130 to 120.25, cells 14–16 (cell i spans the centres 8i + 0.5…8i + 8.5); in row 7, x
    /// 120.25…108.25, cells 13–14; in row 8, x 108.25…100, cells 12–13. Those cells' pixels are
    /// the triangles' own, bit for bit.
    func testSharpKinksLeaveTheirCellsToTheTriangles() throws {
        let width = 320, height = 184
        let (mesh, smooth) = tilingMesh(width: width, height: height)
        let plain = try XCTUnwrap(ShadingLattice(mesh: mesh, width: width, height: height, kinks: smooth))
        let sharp = ShadingLattice.Kink(from: SIMD2(130, 50), to: SIMD2(100, 70), slopeJump: 1 / 255)
        let lattice = try XCTUnwrap(
            ShadingLattice(mesh: mesh, width: width, height: height, kinks: smooth + [sharp]))
        let cells = lattice.cellColumns
        XCTAssertGreaterThan(plain.shadedShare, 0.9)
        for (index, shaded) in lattice.smooth.enumerated() {
            let (i, j) = (index % cells, index / cells)
            let reached = [6: 14...16, 7: 13...14, 8: 12...13][j]?.contains(i) ?? false
            XCTAssertEqual(shaded, plain.smooth[index] && !reached, "cell \(i), \(j)")
        }
        for over: Float? in [nil, 0.7] {
            let under = PremultipliedColor(r: 0.3, g: 0.2, b: 0.1, a: 1)
            let triangles = painted(width: width, height: height, under: under) { band, first, rows in
                if let over {
                    mesh.paintOver(into: band, firstRow: first, rows: rows, columns: 0..<width, opacity: over)
                } else {
                    mesh.paint(into: band, firstRow: first, rows: rows)
                }
            }
            let shaded = painted(width: width, height: height, under: under) { band, first, rows in
                lattice.paint(into: band, firstRow: first, rows: rows, columns: 0..<width, over: over)
            }
            for (j, crossed) in [6: 14...16, 7: 13...14, 8: 12...13] {
                for y in (8 * j)..<(8 * j + 8) {
                    for x in (8 * crossed.lowerBound)..<(8 * crossed.upperBound + 8) {
                        XCTAssertEqual(
                            shaded.pixel(x: x, row: y), triangles.pixel(x: x, row: y), "pixel \(x), \(y)")
                    }
                }
            }
            XCTAssertLessThan(
                largestDifference(triangles, shaded, width: width, rows: Array(0..<height)).0, 0.5)
        }
        // A jump that is not a number counts as too large, in the cells the kink crosses.
        let unknown = ShadingLattice.Kink(from: SIMD2(3, 3), to: SIMD2(4, 5), slopeJump: .nan)
        let one = try XCTUnwrap(ShadingLattice(mesh: mesh, width: width, height: height, kinks: [unknown]))
        XCTAssertEqual(one.smooth.indices.filter { !one.smooth[$0] }, [0])
        // A kink whose ends are not finite numbers could be anywhere: every cell.
        for kink in [
            ShadingLattice.Kink(from: SIMD2(.nan, 3), to: SIMD2(4, 5), slopeJump: 1),
            ShadingLattice.Kink(from: SIMD2(3, 3), to: SIMD2(4, .infinity), slopeJump: 1),
        ] {
            XCTAssertTrue(
                ShadingLattice(mesh: mesh, width: width, height: height, kinks: [kink]) == nil, "\(kink)")
        }
    }

    /// Composited over a picture at an opacity: exactly the lattice's own colours composited by
    /// `Compositing.sourceOver`.
    func testOverIsSourceOverOfTheLatticeColors() throws {
        let width = 203, height = 117
        let (mesh, kinks) = tilingMesh(width: width, height: height)
        let lattice = try XCTUnwrap(ShadingLattice(mesh: mesh, width: width, height: height, kinks: kinks))
        let under = PremultipliedColor(r: 0.2, g: 0.1, b: 0.05, a: 0.6)
        let over = painted(width: width, height: height, under: under) { band, first, rows in
            lattice.paint(into: band, firstRow: first, rows: rows, columns: 0..<width, over: 0.55)
        }
        let colors = painted(width: width, height: height) { band, first, rows in
            lattice.paint(into: band, firstRow: first, rows: rows, columns: 0..<width)
        }
        let composited = painted(width: width, height: height, under: under) { band, first, rows in
            Compositing.sourceOver(
                colors.rows(from: first, count: rows), onto: band, opacity: 0.55, rows: rows,
                columns: 0..<width)
        }
        XCTAssertEqual(largestDifference(over, composited, width: width, rows: Array(0..<height)).0, 0)
    }

    /// Columns outside those asked for keep what the band held, and those inside get the same
    /// values as a full-width paint, whatever the columns' alignment to the lattice's cells.
    func testColumnsOutsideTheRangeAreLeftAlone() throws {
        let width = 203, height = 40
        let (mesh, kinks) = tilingMesh(width: width, height: height)
        let lattice = try XCTUnwrap(ShadingLattice(mesh: mesh, width: width, height: height, kinks: kinks))
        let full = painted(width: width, height: height) { band, first, rows in
            lattice.paint(into: band, firstRow: first, rows: rows, columns: 0..<width)
        }
        let poison = PremultipliedColor(r: 0.9, g: 0, b: 0.9, a: 0.9)
        for columns in [13..<150, 16..<24, 5..<6, 200..<203, 190..<400] {
            for over: Float? in [nil, 0.4] {
                let part = painted(width: width, height: height, under: poison) { band, first, rows in
                    lattice.paint(into: band, firstRow: first, rows: rows, columns: columns, over: over)
                }
                for row in 0..<height {
                    for x in 0..<width {
                        let p = part.pixel(x: x, row: row)
                        guard columns.contains(x) else {
                            XCTAssertEqual(p, poison, "\(columns) pixel \(x),\(row) was written")
                            continue
                        }
                        if over == nil {
                            XCTAssertEqual(p, full.pixel(x: x, row: row), "\(columns) pixel \(x),\(row)")
                        }
                    }
                }
            }
        }
    }

    /// Bands of any height and start give the same bytes: each row depends only on its own
    /// position (so 1 and N threads agree).
    func testAnySplitIntoBandsGivesTheSameBytes() throws {
        let width = 160, height = 90
        let (mesh, kinks) = tilingMesh(width: width, height: height)
        let lattice = try XCTUnwrap(ShadingLattice(mesh: mesh, width: width, height: height, kinks: kinks))
        let whole = PlanarBand(width: width, rows: height)
        lattice.paint(into: whole, firstRow: 0, rows: height, columns: 0..<width)
        let rowByRow = PlanarBand(width: width, rows: height)
        for y in 0..<height {
            lattice.paint(into: rowByRow.rows(from: y, count: 1), firstRow: y, rows: 1, columns: 0..<width)
        }
        for row in 0..<height {
            for x in 0..<width {
                XCTAssertEqual(whole.pixel(x: x, row: row), rowByRow.pixel(x: x, row: row))
            }
        }
    }

    /// Only a mesh that covers every pixel with opaque colour, with some cell smooth
    /// enough, gets a lattice; frames of any size do, down to a pixel.
    func testOnlyOpaqueTilingMeshesGetALattice() throws {
        func lattice(_ width: Int, _ height: Int, alpha: Float = 1, scale: Double = 1000) -> ShadingLattice? {
            let (mesh, kinks) = tilingMesh(width: width, height: height, scale: scale, alpha: alpha)
            return ShadingLattice(mesh: mesh, width: width, height: height, kinks: kinks)
        }
        XCTAssertTrue(lattice(96, 64, alpha: 0.5) == nil)
        var (outlined, kinks) = tilingMesh(width: 96, height: 64)
        outlined.addSilhouette(SIMD2(10, 10), SIMD2(50, 30))
        XCTAssertTrue(ShadingLattice(mesh: outlined, width: 96, height: 64, kinks: kinks) == nil)
        for (width, height) in [(1, 1), (9, 1), (1, 17), (8, 8), (17, 9)] {
            let (mesh, kinks) = tilingMesh(width: width, height: height)
            let small = try XCTUnwrap(ShadingLattice(mesh: mesh, width: width, height: height, kinks: kinks))
            let triangles = painted(width: width, height: height) { band, first, rows in
                mesh.paint(into: band, firstRow: first, rows: rows)
            }
            let shaded = painted(width: width, height: height) { band, first, rows in
                small.paint(into: band, firstRow: first, rows: rows, columns: 0..<width)
            }
            XCTAssertLessThan(
                largestDifference(triangles, shaded, width: width, rows: Array(0..<height)).0, 0.5,
                "\(width)×\(height)")
        }
    }
}
