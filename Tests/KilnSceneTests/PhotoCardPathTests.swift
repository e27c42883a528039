import Foundation
import KilnModel
import KilnScene
import XCTest

final class PhotoCardPathTests: XCTestCase {
    /// A clipped group holding one image takes the one-pass path (image, clip and compositing
    /// together); adding an invisible second child forces the general path. Both agree, also
    /// for an opaque picture at full opacity, whose interior chunks are written without reading
    /// the band under them.
    func testOnePassCardMatchesTheGeneralPath() throws {
        let photo = Fixture.repositoryRoot.appendingPathComponent("jobs/photos/forest.png").path
        func frame(extraChild: Bool, opacity: Double, imageOpacity: Double) throws -> [UInt8] {
            let invisible = ", {\"type\": \"shape\", \"size\": [10, 10], \"fill\": \"#00000000\"}"
            let extra = extraChild ? invisible : ""
            let job = try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 320, "height": 240, "fps": 30, "duration": 1},
                 "layers": [{"type": "solid", "color": "#203040"},
                   {"type": "group", "size": [180, 130], "clip": "roundedRect", "cornerRadius": 18,
                    "rotation": 14, "opacity": \(opacity),
                    "layers": [{"type": "image", "path": "\(photo)", "size": [180, 130], "opacity": \(imageOpacity)}\(extra)]}]}
                """)
            return Fixture.render(job).byteArray
        }
        for (opacity, imageOpacity) in [(1.0, 0.9), (0.6, 0.9), (1.0, 1.0)] {
            let fast = try frame(extraChild: false, opacity: opacity, imageOpacity: imageOpacity)
            let general = try frame(extraChild: true, opacity: opacity, imageOpacity: imageOpacity)
            let worst = zip(fast, general).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 1, "opacity \(opacity), picture \(imageOpacity)")
        }
    }
}
