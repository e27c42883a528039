import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnScene
import XCTest

final class RegistryTests: XCTestCase {
    /// Every layer of every shipped job, painted alone at many times: all values finite and
    /// premultiplied (0 ≤ colour ≤ alpha ≤ 1), the invariant the quantizer relies on.
    func testLayersKeepThePremultipliedInvariant() throws {
        let jobsDir = Fixture.repositoryRoot.appendingPathComponent("jobs")
        let canvas = Canvas(width: 320, height: 180)
        let band = PlanarBand(width: canvas.width, rows: canvas.bandHeight)
        for file in try FileManager.default.contentsOfDirectory(atPath: jobsDir.path)
        where file.hasSuffix(".json") {
            let job = try JobFiles.load(file: jobsDir.appendingPathComponent(file).path)
            for layer in job.layers {
                for time in stride(from: 0.0, through: job.output.durationSeconds, by: 0.45) {
                    guard let item = layer.prepare(at: time, canvas: canvas) else { continue }
                    let prepared = LayerStack(items: [item])
                    prepared.renderOffscreens(canvas: canvas)
                    var bad = 0
                    for first in stride(from: 0, to: canvas.height, by: canvas.bandHeight) {
                        let rows = min(canvas.bandHeight, canvas.height - first)
                        prepared.paint(
                            into: band, firstRow: first, rows: rows, columns: 0..<canvas.width,
                            pool: BandPool(width: canvas.width, rows: canvas.bandHeight))
                        for row in 0..<rows {
                            for x in 0..<canvas.width {
                                let p = band.pixel(x: x, row: row)
                                let ok =
                                    p.a.isFinite && p.a >= 0 && p.a <= 1.0001
                                    && [p.r, p.g, p.b].allSatisfy {
                                        $0.isFinite && $0 >= -1e-4 && $0 <= p.a + 1e-4
                                    }
                                bad += ok ? 0 : 1
                            }
                        }
                    }
                    XCTAssertEqual(bad, 0, "\(file) \(layer.path) t=\(time)")
                }
            }
        }
    }

    /// Every registered kind has a unique name and an example job in jobs/ that uses it and is valid.
    func testEveryLayerKindHasAnExampleJob() throws {
        let names = LayerRegistry.kinds.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        let jobsDir = Fixture.repositoryRoot.appendingPathComponent("jobs")
        let files = try FileManager.default.contentsOfDirectory(atPath: jobsDir.path).filter {
            $0.hasSuffix(".json")
        }
        var used = Set<String>()
        for file in files {
            let job = try JobFiles.load(file: jobsDir.appendingPathComponent(file).path)
            func walk(_ layers: [LayerNode]) {
                for layer in layers {
                    used.insert(layer.kind)
                    used.formUnion(layer.effects.map(\.kind))
                    walk(layer.children)
                }
            }
            walk(job.layers)
        }
        for name in names { XCTAssertTrue(used.contains(name), "no job in jobs/ uses layer kind '\(name)'") }
        for name in LayerRegistry.effects.map(\.name) {
            XCTAssertTrue(used.contains(name), "no job in jobs/ uses effect '\(name)'")
        }
    }
}
