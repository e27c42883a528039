import Foundation
import KilnExport
import KilnModel
import KilnRaster
import XCTest

@testable import KilnScene

final class MeshGradientTests: XCTestCase {
    let points: [(Double, Double)] = [
        (0, 0), (0.5, 0), (1, 0), (0, 0.5), (0.9, 0.3), (1, 0.5), (0, 1), (0.5, 1), (1, 1),
    ]
    let colors: [SIMD3<Int>] = [
        [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 255], [0, 0, 255], [0, 0, 255], [0, 255, 0], [0, 255, 0],
        [0, 255, 0],
    ]

    func pixel(_ frame: RGBA8Frame, at p: (Double, Double)) -> SIMD3<Int> {
        let x = min(Int(p.0 * Double(frame.width)), frame.width - 1)
        let y = min(Int(p.1 * Double(frame.height)), frame.height - 1)
        let v = frame.pixel(x: x, y: y)
        return SIMD3(Int(v[0]), Int(v[1]), Int(v[2]))
    }

    func testEveryControlPointHasItsColorInBothModes() throws {
        for smooth in [true, false] {
            let frame = Fixture.render(try Fixture.seedMeshJob(center: (0.9, 0.3), smooth: smooth))
            for (p, expected) in zip(points, colors) {
                let got = pixel(frame, at: p)
                let worst = (got &- expected).replacing(with: expected &- got, where: got .< expected).max()
                XCTAssertLessThanOrEqual(
                    worst, 1, "point \(p) smooth=\(smooth): got \(got), expected \(expected)")
            }
        }
    }

    func testSmoothAndBilinearDifferOnlyBetweenPoints() throws {
        let smooth = Fixture.render(try Fixture.seedMeshJob(center: (0.9, 0.3), smooth: true))
        let bilinear = Fixture.render(try Fixture.seedMeshJob(center: (0.9, 0.3), smooth: false))
        for p in points {
            let d = pixel(smooth, at: p) &- pixel(bilinear, at: p)
            XCTAssertLessThanOrEqual(max(abs(d.x), abs(d.y), abs(d.z)), 2, "at control point \(p)")
        }
        var largest = 0
        for y in stride(from: 0, to: 1080, by: 7) {
            for x in stride(from: 0, to: 1920, by: 7) {
                let a = smooth.pixel(x: x, y: y), b = bilinear.pixel(x: x, y: y)
                largest = max(largest, abs(Int(a[1]) - Int(b[1])), abs(Int(a[2]) - Int(b[2])))
            }
        }
        XCTAssertGreaterThan(largest, 8, "smooth and bilinear interpolation should differ between points")
    }

    /// The seed: moving the centre point to [0.9, 0.3] pulls the blue region up and to the right.
    func testMovingTheCentrePointMovesTheColors() throws {
        let centred = Fixture.render(try Fixture.seedMeshJob(center: (0.5, 0.5)))
        let moved = Fixture.render(try Fixture.seedMeshJob(center: (0.9, 0.3)))
        let probe = (0.8, 0.3)
        XCTAssertGreaterThan(pixel(moved, at: probe).z - pixel(centred, at: probe).z, 40)
        // Corners are pinned by their own points and do not move.
        for corner in [(0.0, 0.0), (0.999, 0.999)] {
            XCTAssertEqual(pixel(moved, at: corner), pixel(centred, at: corner))
        }
        // With the centre in the middle, the middle row is uniformly blue.
        for x in [0.1, 0.3, 0.5, 0.7, 0.9] {
            let p = pixel(centred, at: (x, 0.5))
            XCTAssertLessThanOrEqual(abs(p.z - 255) + p.x + p.y, 3, "at \(x)")
        }
    }

    func testKeyframedPointAnimatesOverTime() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": 2},
             "layers": [{"type": "meshGradient", "width": 2, "height": 2,
               "points": [[0,0],[1,0],[0,1],{"keyframes": [{"t": 0, "v": [1,1]}, {"t": 2, "v": [0.5,0.5]}]}],
               "colors": ["#ff0000","#ff0000","#ff0000","#0000ff"], "background": "#00ff00"}]}
            """)
        let start = Fixture.render(job, at: 0), end = Fixture.render(job, at: 2)
        // At t=0 the mesh covers the frame; at t=2 the bottom-right corner shows the background.
        XCTAssertEqual(start.pixel(x: 318, y: 178)[1], 0)
        XCTAssertEqual(end.pixel(x: 318, y: 178), SIMD4(0, 255, 0, 255))
    }

    /// With every border point on the frame's edge the mesh covers the whole frame, folds and
    /// all: painted alone, every pixel of the layer must be fully opaque (a crack between
    /// patches, or a silhouette subsample that no triangle claims, would let alpha drop).
    func testAnimatedMeshLeavesNoCracks() throws {
        let job = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/showcase.json").path)
        let mesh = try XCTUnwrap(
            job.layers.first { $0.kind == "meshGradient" }?.content as? MeshGradientLayer)
        let canvas = Canvas(width: 960, height: 540)
        let band = PlanarBand(width: canvas.width, rows: canvas.bandHeight)
        for time in stride(from: 0.0, through: 8, by: 0.35) {
            let prepared = mesh.prepare(at: time, canvas: canvas)
            var holes = 0
            for first in stride(from: 0, to: canvas.height, by: canvas.bandHeight) {
                let rows = min(canvas.bandHeight, canvas.height - first)
                prepared.paint(into: band, firstRow: first, rows: rows)
                for row in 0..<rows {
                    for x in 0..<canvas.width where band.pixel(x: x, row: row).a < 0.999 { holes += 1 }
                }
            }
            XCTAssertEqual(holes, 0, "t=\(time)")
        }
    }

    /// Where the mesh ends inside the frame its outline is anti-aliased: pixels along a straight
    /// outline take the analytic coverage of the pixel square (within the 16-sample step).
    func testOutlineIsAntialiased() throws {
        // Black mesh over white: pulling the bottom-right corner in to (0.7, 0.4) makes the right
        // boundary the straight segment from (256, 0) to (179.2, 102.4): x = 256 − 0.75·y.
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 256, "height": 256, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#ffffff"},
                        {"type": "meshGradient", "width": 2, "height": 2,
                         "points": [[0,0],[1,0],[0,1],[0.7,0.4]],
                         "colors": ["#000000","#000000","#000000","#000000"]}]}
            """)
        let frame = Fixture.render(job)
        var compared = 0, intermediate = 0
        var errorSum = 0.0, worst = 0.0
        for y in 4..<96 {
            for x in 170..<256 {
                // Fraction of the pixel square with x + y < 256, by fine sampling in Double.
                var inside = 0
                for sy in 0..<32 {
                    for sx in 0..<32
                    where Double(x) + (Double(sx) + 0.5) / 32 < 256 - 0.75
                        * (Double(y) + (Double(sy) + 0.5) / 32)
                    {
                        inside += 1
                    }
                }
                let coverage = Double(inside) / 1024
                guard coverage > 0 && coverage < 1 else { continue }
                let expected = 255 * (1 - coverage)
                let got = Double(frame.pixel(x: x, y: y)[0])
                errorSum += abs(got - expected)
                worst = max(worst, abs(got - expected))
                compared += 1
                if got > 8 && got < 247 { intermediate += 1 }
            }
        }
        XCTAssertGreaterThan(compared, 90)
        XCTAssertGreaterThan(Double(intermediate) / Double(compared), 0.8, "edge pixels are not blended")
        XCTAssertLessThan(errorSum / Double(compared), 8, "mean error against analytic coverage")
        XCTAssertLessThanOrEqual(worst, 32)
    }

    /// Linear shading of ~24 px triangles stays within two code values of a much finer
    /// tessellation of the same bicubic surface, except along the silhouette of a fold (where the
    /// springs push points past each other), whose outline is polygonal at the coarser step.
    func testDefaultTessellationMatchesFineReference() throws {
        let job = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/showcase.json").path)
        func withEdge(_ edge: Double) -> Job {
            let layers = job.layers.map { node -> LayerNode in
                guard let mesh = node.content as? MeshGradientLayer else { return node }
                let finer = MeshGradientLayer(
                    columns: mesh.columns, rows: mesh.rows, points: mesh.points, colors: mesh.colors,
                    background: mesh.background, smoothsColors: mesh.smoothsColors, tessellationEdge: edge)
                return LayerNode(
                    kind: node.kind, name: node.name, opacity: node.opacity, content: finer, path: node.path)
            }
            return Job(file: job.file, output: job.output, layers: layers)
        }
        for time in [2.0, 5.5] {
            let coarse = Fixture.render(withEdge(24), at: time).byteArray
            let fine = Fixture.render(withEdge(3), at: time).byteArray
            var outliers = 0, total = 0
            for i in coarse.indices {
                let d = abs(Int(coarse[i]) - Int(fine[i]))
                outliers += d > 2 ? 1 : 0
                total += d
            }
            XCTAssertLessThan(Double(outliers) / Double(coarse.count), 0.001, "t=\(time)")
            XCTAssertLessThan(Double(total) / Double(coarse.count), 0.2, "t=\(time)")
        }
    }

    func testPointCountMustMatchGrid() {
        XCTAssertThrowsError(
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "layers": [{"type": "meshGradient", "width": 3, "height": 2,
                   "points": [[0,0],[1,0],[0,1],[1,1]], "colors": ["#000000","#000000","#000000","#000000","#000000","#000000"]}]}
                """)
        ) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("layers[0].points"), text)
            XCTAssertTrue(text.contains("expected 6 points"), text)
        }
    }

    /// A faded mesh is composited triangle by triangle, straight onto the frame, while it covers
    /// the frame once with opaque colours; folded, it goes through a scratch band as any layer.
    /// Either way the bytes are those of the same mesh faded as a group (which always takes the
    /// scratch band).
    func testFadedMeshCompositedDirectlyMatchesTheFadedGroup() throws {
        let showcase = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Fixture.repositoryRoot.appendingPathComponent("jobs/showcase.json")))
        let layers = try XCTUnwrap((showcase as? [String: Any])?["layers"] as? [[String: Any]])
        var mesh = try XCTUnwrap(layers.first { $0["type"] as? String == "meshGradient" })
        mesh["effects"] = nil
        func text(_ object: Any) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        func job(_ layer: String) throws -> Job {
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 480, "height": 270, "fps": 30, "duration": 10},
                 "layers": [{"type": "solid", "color": "#33804d"}, \(layer)]}
                """)
        }
        // The showcase's mesh never folds; the same mesh with one point dragged across two
        // others folds at every time.
        var folded = mesh
        var points = try XCTUnwrap(mesh["points"] as? [Any])
        points[10] = [0.2, 0.25]
        folded["points"] = points
        for (layer, expectedTiled) in [(mesh, 5), (folded, 0)] {
            var faded = layer
            faded["opacity"] = 0.55
            let direct = try job(try text(faded))
            let grouped = try job(#"{"type": "group", "opacity": 0.55, "layers": [\#(try text(layer))]}"#)
            var tiled = 0
            for time in [0.5, 2.0, 4.5, 5.5, 8.5] {
                let item = try XCTUnwrap(
                    direct.layers[1].prepare(at: time, canvas: Canvas(width: 480, height: 270)))
                if try XCTUnwrap(item.layer as? PreparedMesh).mesh.tilesOpaquely { tiled += 1 }
                XCTAssertEqual(
                    Fixture.render(direct, at: time).byteArray, Fixture.render(grouped, at: time).byteArray,
                    "t=\(time)")
            }
            XCTAssertEqual(tiled, expectedTiled)
        }
    }

    /// The shipped meshes at full size are shaded on the lattice (`ShadingLattice`) in nearly
    /// every cell, within half a code value of their triangles.
    func testShippedMeshesAreShadedOnTheLatticeWithinHalfACodeValue() throws {
        let canvas = Canvas(width: 1920, height: 1080)
        for (file, times) in [
            ("jobs/showcase.json", [0.5, 3.0, 6.5]), ("jobs/mesh-gradient.json", [0.5, 2.5, 5.0]),
        ] {
            let job = try JobFiles.load(file: Fixture.repositoryRoot.appendingPathComponent(file).path)
            let layer = try XCTUnwrap(job.layers.first { $0.kind == "meshGradient" })
            for time in times {
                let item = try XCTUnwrap(layer.prepare(at: time, canvas: canvas))
                let prepared = try XCTUnwrap(item.layer as? PreparedMesh)
                let lattice = try XCTUnwrap(prepared.lattice, "\(file) t=\(time)")
                XCTAssertGreaterThan(
                    lattice.shadedShare, 0.9, "\(file) t=\(time): share of cells on the lattice")
                let triangles = PlanarBand(width: canvas.width, rows: canvas.bandHeight)
                let band = PlanarBand(width: canvas.width, rows: canvas.bandHeight)
                var largest: Float = 0
                for first in stride(from: 0, to: canvas.height, by: canvas.bandHeight) {
                    prepared.mesh.paint(into: triangles, firstRow: first, rows: canvas.bandHeight)
                    lattice.paint(
                        into: band, firstRow: first, rows: canvas.bandHeight, columns: 0..<canvas.width)
                    for row in 0..<canvas.bandHeight {
                        for x in 0..<canvas.width {
                            let p = band.pixel(x: x, row: row), q = triangles.pixel(x: x, row: row)
                            largest = max(
                                largest, abs(p.r - q.r), abs(p.g - q.g), abs(p.b - q.b), abs(p.a - q.a))
                        }
                    }
                }
                XCTAssertLessThan(largest * 255, 0.5, "\(file) t=\(time): largest difference in code values")
            }
        }
    }

    /// The smallest Jacobian determinant of each patch of `grid`'s position surface, sampled on a
    /// 24 × 24 grid of (u, v) by central differences: negative where the patch folds over.
    static func smallestJacobians(_ grid: MeshGrid) -> [Double] {
        let h = 1e-4, n = 24
        var result: [Double] = []
        for r in 0..<(grid.rows - 1) {
            for c in 0..<(grid.columns - 1) {
                let corner = r * grid.columns + c
                func at(_ u: Double, _ v: Double) -> SIMD2<Double> {
                    grid.surface(
                        grid.positions, grid.positionTangents, at: corner, MeshGrid.Basis(u),
                        MeshGrid.Basis(v))
                }
                var smallest = Double.infinity
                for i in 0...n {
                    for j in 0...n {
                        let u = h + (1 - 2 * h) * Double(i) / Double(n)
                        let v = h + (1 - 2 * h) * Double(j) / Double(n)
                        let du = (at(u + h, v) - at(u - h, v)) / (2 * h)
                        let dv = (at(u, v + h) - at(u, v - h)) / (2 * h)
                        smallest = min(smallest, du.x * dv.y - du.y * dv.x)
                    }
                }
                result.append(smallest)
            }
        }
        return result
    }

    /// The seed's 3×3 mesh with its centre point anywhere in the unit square: no patch folds while
    /// the four patches are convex quadrilaterals (the centre inside the diamond through the edge
    /// midpoints), nor at the seed's own [0.9, 0.3], which is outside it. Unlimited Catmull-Rom
    /// tangents fold some of these placements (a point near a neighbour swings its edge past it)
    /// and the seed's own.
    func testTheSeedMeshDoesNotFoldWhilePointsStayOnTheirSide() {
        func grid(center: SIMD2<Double>) -> MeshGrid {
            let points: [SIMD2<Double>] = [
                [0, 0], [0.5, 0], [1, 0], [0, 0.5], center, [1, 0.5], [0, 1], [0.5, 1], [1, 1],
            ]
            // A 16:9 frame, as the jobs have: folds do not depend on the scale of the axes.
            return MeshGrid(
                columns: 3, rows: 3, positions: points.map { $0 * SIMD2(1920, 1080) },
                colors: Array(repeating: SIMD4(0, 0, 0, 1), count: 9))
        }
        var convexPlacements = 0
        for i in 1..<40 {
            for j in 1..<40 {
                let center = SIMD2(Double(i) / 40, Double(j) / 40)
                guard abs(center.x - 0.5) + abs(center.y - 0.5) < 0.5 else { continue }
                convexPlacements += 1
                let smallest = Self.smallestJacobians(grid(center: center)).min()!
                XCTAssertGreaterThan(smallest, 0, "centre \(center) folds a patch")
            }
        }
        XCTAssertGreaterThan(convexPlacements, 700)
        XCTAssertGreaterThan(
            Self.smallestJacobians(grid(center: [0.9, 0.3])).min()!, 0, "the seed's example")
        // Pushed across the line between two edge midpoints, a patch turns concave and folds.
        XCTAssertLessThan(Self.smallestJacobians(grid(center: [0.95, 0.95])).min()!, 0)
    }

    /// On an even grid the limit changes nothing: the tangents stay Catmull-Rom's.
    func testTheTangentLimitLeavesAnEvenGridAlone() {
        let positions = (0..<16).map { SIMD2(Double($0 % 4) * 640, Double($0 / 4) * 360) }
        let plain = MeshGrid.tangents(positions, columns: 4, rows: 4)
        let limited = MeshGrid.limitedTangents(positions, columns: 4, rows: 4)
        XCTAssertEqual(plain.u, limited.u)
        XCTAssertEqual(plain.v, limited.v)
    }

    /// The README's minimal job: its moving point keeps the mesh over the whole frame, so the dark
    /// background never shows (its 2×2 corner point once moved inward and bared a hard wedge).
    func testTheReadmeJobCoversTheFrameThroughout() throws {
        let readme = try String(
            contentsOf: Fixture.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let afterIntro = try XCTUnwrap(readme.range(of: "A minimal job:\n\n```json\n"))
        let end = try XCTUnwrap(readme.range(of: "```", range: afterIntro.upperBound..<readme.endIndex))
        let job = try Fixture.job(String(readme[afterIntro.upperBound..<end.lowerBound]))
        XCTAssertEqual(job.layers.map(\.kind), ["solid", "meshGradient"])
        for time in [0.0, 1.0, 2.0, 3.0, 3.99] {
            let frame = Fixture.render(job, at: time)
            var nearest = Int.max
            for y in stride(from: 0, to: frame.height, by: 3) {
                for x in stride(from: 0, to: frame.width, by: 3) {
                    let p = frame.pixel(x: x, y: y)
                    // The background is #101018.
                    nearest = min(
                        nearest, abs(Int(p[0]) - 0x10) + abs(Int(p[1]) - 0x10) + abs(Int(p[2]) - 0x18))
                }
            }
            XCTAssertGreaterThan(nearest, 40, "t=\(time): the background shows")
        }
    }
}
