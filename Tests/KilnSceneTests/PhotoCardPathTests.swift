import Foundation
import KilnModel
import KilnScene
import XCTest

final class PhotoCardPathTests: XCTestCase {
    /// A clipped group holding one image takes the one-pass path (image, clip and compositing
    /// together); adding an invisible second child forces the general path. Both agree.
    func testOnePassCardMatchesTheGeneralPath() throws {
        let photo = Fixture.repositoryRoot.appendingPathComponent("jobs/photos/forest.png").path
        func frame(extraChild: Bool, opacity: Double) throws -> [UInt8] {
            let invisible = ", {\"type\": \"shape\", \"size\": [10, 10], \"fill\": \"#00000000\"}"
            let extra = extraChild ? invisible : ""
            let job = try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 320, "height": 240, "fps": 30, "duration": 1},
                 "layers": [{"type": "solid", "color": "#203040"},
                   {"type": "group", "size": [180, 130], "clip": "roundedRect", "cornerRadius": 18,
                    "rotation": 14, "opacity": \(opacity),
                    "layers": [{"type": "image", "path": "\(photo)", "size": [180, 130], "opacity": 0.9}\(extra)]}]}
                """)
            return Fixture.render(job).byteArray
        }
        for opacity in [1.0, 0.6] {
            let fast = try frame(extraChild: false, opacity: opacity)
            let general = try frame(extraChild: true, opacity: opacity)
            let worst = zip(fast, general).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 1, "opacity \(opacity)")
        }
    }
}
