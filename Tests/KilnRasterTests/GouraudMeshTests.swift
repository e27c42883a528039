import KilnRaster
import KilnTestSupport
import XCTest

final class GouraudMeshTests: XCTestCase {
    /// Jittered grid of triangles painted with half-transparent colour: a pixel painted twice would
    /// have alpha 0.75, a gap alpha 0. Every pixel inside must be exactly 0.5.
    func testSharedEdgesNeitherOverlapNorLeaveGaps() {
        let width = 97, height = 64
        var mesh = GouraudMesh()
        let n = 7
        var rng = SplitMix(state: 7)
        var grid: [[SIMD2<Float>]] = []
        for j in 0...n {
            var row: [SIMD2<Float>] = []
            for i in 0...n {
                var p = SIMD2(Float(i) / Float(n) * Float(width), Float(j) / Float(n) * Float(height))
                if i > 0 && i < n { p.x += Float.random(in: -4...4, using: &rng) }
                if j > 0 && j < n { p.y += Float.random(in: -3...3, using: &rng) }
                row.append(p)
            }
            grid.append(row)
        }
        let half = SIMD4<Float>(0.25, 0.1, 0.4, 0.5)
        func v(_ p: SIMD2<Float>) -> GouraudMesh.Vertex { .init(x: p.x, y: p.y, color: half) }
        for j in 0..<n {
            for i in 0..<n {
                mesh.addTriangle(v(grid[j][i]), v(grid[j][i + 1]), v(grid[j + 1][i]))
                mesh.addTriangle(v(grid[j][i + 1]), v(grid[j + 1][i + 1]), v(grid[j + 1][i]))
            }
        }
        mesh.bin(bandHeight: 8, frameHeight: height)
        let band = PlanarBand(width: width, rows: 8)
        for first in stride(from: 0, to: height, by: 8) {
            band.fill(.transparent, rows: 8)
            mesh.paint(into: band, firstRow: first, rows: 8)
            for row in 0..<8 {
                for x in 0..<width {
                    XCTAssertEqual(band.pixel(x: x, row: row).a, 0.5, "pixel \(x),\(first + row)")
                }
            }
        }
    }

    /// Colours inside a triangle equal barycentric interpolation computed in Double.
    func testColorsMatchScalarBarycentricReference() {
        let a = GouraudMesh.Vertex(x: 3.2, y: 1.5, color: SIMD4(1, 0, 0, 1))
        let b = GouraudMesh.Vertex(x: 60.7, y: 10.1, color: SIMD4(0, 1, 0, 1))
        let c = GouraudMesh.Vertex(x: 20.3, y: 47.9, color: SIMD4(0, 0, 1, 1))
        var mesh = GouraudMesh()
        mesh.addTriangle(a, b, c)
        mesh.bin(bandHeight: 8, frameHeight: 48)
        let band = PlanarBand(width: 64, rows: 8)
        var checked = 0
        for first in stride(from: 0, to: 48, by: 8) {
            band.fill(.transparent, rows: 8)
            mesh.paint(into: band, firstRow: first, rows: 8)
            for row in 0..<8 {
                for x in 0..<64 {
                    let px = Double(x) + 0.5, py = Double(first + row) + 0.5
                    let (ax, ay, bx, by, cx, cy) = (
                        Double(a.x), Double(a.y), Double(b.x), Double(b.y), Double(c.x), Double(c.y)
                    )
                    let det = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy)
                    let l1 = ((by - cy) * (px - cx) + (cx - bx) * (py - cy)) / det
                    let l2 = ((cy - ay) * (px - cx) + (ax - cx) * (py - cy)) / det
                    let l3 = 1 - l1 - l2
                    let inside = l1 > 1e-4 && l2 > 1e-4 && l3 > 1e-4
                    let p = band.pixel(x: x, row: row)
                    if inside {
                        XCTAssertEqual(Double(p.r), l1, accuracy: 1e-4)
                        XCTAssertEqual(Double(p.g), l2, accuracy: 1e-4)
                        XCTAssertEqual(Double(p.b), l3, accuracy: 1e-4)
                        XCTAssertEqual(p.a, 1)
                        checked += 1
                    } else if l1 < -1e-4 || l2 < -1e-4 || l3 < -1e-4 {
                        XCTAssertEqual(p.a, 0, "outside pixel \(x),\(first + row) painted")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 800)
    }

    func testDegenerateTrianglesAreDropped() {
        var mesh = GouraudMesh()
        let p = GouraudMesh.Vertex(x: 1, y: 1, color: SIMD4(1, 1, 1, 1))
        mesh.addTriangle(p, p, GouraudMesh.Vertex(x: 5, y: 5, color: SIMD4(1, 1, 1, 1)))
        XCTAssertEqual(mesh.triangleCount, 0)
    }
}
