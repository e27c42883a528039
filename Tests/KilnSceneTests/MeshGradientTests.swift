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

    func testEveryControlPointHasItsColourInBothModes() throws {
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
    func testMovingTheCentrePointMovesTheColours() throws {
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
        var faded = mesh
        faded["opacity"] = 0.55
        let direct = try job(try text(faded))
        let grouped = try job(#"{"type": "group", "opacity": 0.55, "layers": [\#(try text(mesh))]}"#)
        var tiled = 0
        for time in [0.5, 2.0, 4.5, 5.5, 8.5] {
            let item = try XCTUnwrap(
                direct.layers[1].prepare(at: time, canvas: Canvas(width: 480, height: 270)))
            if try XCTUnwrap(item.layer as? PreparedMesh).mesh.tilesOpaquely { tiled += 1 }
            XCTAssertEqual(
                Fixture.render(direct, at: time).byteArray, Fixture.render(grouped, at: time).byteArray,
                "t=\(time)")
        }
        XCTAssertEqual(tiled, 2, "flat at 0.5 and 2 s, folded at the later times")
    }
}
