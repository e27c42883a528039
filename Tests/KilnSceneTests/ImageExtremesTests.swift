import Foundation
import KilnRaster
import KilnScene
import XCTest

final class ImageExtremesTests: XCTestCase {
    /// Tiny, huge, mirrored and sheared pictures: finite, premultiplied, and the same bytes on 1
    /// and 3 threads (the deepest mip levels, the edge clamps and far-off coordinates).
    func testExtremeTransformsStayValid() throws {
        let photo = Fixture.repositoryRoot.appendingPathComponent("jobs/photos/sunset.png").path
        for transform in [
            #""scale": 0.001"#, #""scale": 0.02"#, #""scale": 60"#, #""scaleX": -1"#, #""skewX": 88"#,
            #""scale": 0.3, "rotation": 137, "skewY": -60"#,
        ] {
            let job = try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 160, "height": 120, "fps": 30, "duration": 1},
                 "layers": [{"type": "image", "path": "\(photo)", "size": [120, 90], "fit": "fit", \(transform)}]}
                """)
            XCTAssertEqual(
                Fixture.renderYUV(job, threads: 1), Fixture.renderYUV(job, threads: 3), transform)
            let canvas = Canvas(width: 160, height: 120)
            guard let item = job.layers[0].prepare(at: 0, canvas: canvas) else { continue }
            let band = PlanarBand(width: 160, rows: 120)
            LayerStack(items: [item]).paint(
                into: band, firstRow: 0, rows: 120, columns: 0..<160, pool: BandPool(width: 160, rows: 120))
            for y in 0..<120 {
                for x in 0..<160 {
                    let p = band.pixel(x: x, row: y)
                    let ok =
                        p.a.isFinite && p.a >= 0 && p.a <= 1.0001
                        && [p.r, p.g, p.b].allSatisfy { $0.isFinite && $0 >= 0 && $0 <= p.a + 1e-4 }
                    if !ok { return XCTFail("\(transform): bad pixel \(p) at (\(x), \(y))") }
                }
            }
        }
    }
}
