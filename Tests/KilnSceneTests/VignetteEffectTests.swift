import Foundation
import KilnModel
import KilnRaster
import KilnScene
import XCTest

/// The vignette against its formula in Double: a white layer goes towards black by a smoothstep
/// of the elliptical distance from its centre, read at each pixel's own position.
final class VignetteEffectTests: XCTestCase {
    func testAWhiteLayerDarkensByTheFormula() throws {
        let job = try LayerRegistry.decode(
            bytes: Array(
                """
                {"kiln": 1, "output": {"width": 200, "height": 100, "fps": 30, "duration": 1},
                 "layers": [{"type": "shape", "shape": "rect", "size": [200, 100], "position": [100, 50],
                   "fill": "#ffffff", "effects": [{"vignette": {"amount": 0.8, "radius": 0.3, "softness": 0.5}}]}]}
                """.utf8), file: "vignette.json", baseDirectory: URL(fileURLWithPath: "/tmp"))
        let frame = Fixture.render(job)
        var worst = 0.0
        for y in 0..<100 {
            for x in 0..<200 {
                let u = (Double(x) + 0.5 - 100) / 100, v = (Double(y) + 0.5 - 50) / 50
                let t = min(max(((u * u + v * v).squareRoot() / 2.0.squareRoot() - 0.3) / 0.5, 0), 1)
                let expected = 255 * (1 - 0.8 * t * t * (3 - 2 * t))
                worst = max(worst, abs(Double(frame.pixel(x: x, y: y)[0]) - expected))
            }
        }
        XCTAssertLessThanOrEqual(worst, 1, "largest difference in code values")
        XCTAssertEqual(Fixture.render(job, threads: 1).byteArray, Fixture.render(job, threads: 3).byteArray)
    }
}
