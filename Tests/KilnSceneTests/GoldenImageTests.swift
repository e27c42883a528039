import Foundation
import KilnMedia
import KilnRaster
import XCTest

/// Golden images, written by Kiln's own PNG path. Regenerate deliberately with
/// KILN_UPDATE_GOLDENS=1 after a reviewed change in rendering.
final class GoldenImageTests: XCTestCase {
    /// Per-channel tolerance: dither and float rounding may move a pixel by a code value or two
    /// across compilers or CPU levels; any real change in rendering moves far more.
    let maxDifference = 3
    let maxMeanDifference = 0.25

    func check(_ name: String, _ frame: RGBA8Frame) throws {
        let url = Fixture.goldens.appendingPathComponent(name + ".png")
        if ProcessInfo.processInfo.environment["KILN_UPDATE_GOLDENS"] == "1" {
            let png = try PNGCodec.encode(
                rgba: frame.bytes, width: frame.width, height: frame.height, stride: frame.stride)
            try Data(png).write(to: url)
        }
        let golden = try PNGCodec.decode(Array(try Data(contentsOf: url)))
        XCTAssertEqual(golden.width, frame.width)
        XCTAssertEqual(golden.height, frame.height)
        let ours = frame.byteArray
        var worst = 0
        var total = 0
        for i in ours.indices {
            let d = abs(Int(ours[i]) - Int(golden.rgba[i]))
            worst = max(worst, d)
            total += d
        }
        XCTAssertLessThanOrEqual(worst, maxDifference, "\(name): largest difference")
        XCTAssertLessThanOrEqual(
            Double(total) / Double(ours.count), maxMeanDifference, "\(name): mean difference")
    }

    func testSeedMeshGradient() throws {
        try check(
            "mesh-seed-smooth",
            Fixture.render(try Fixture.seedMeshJob(center: (0.9, 0.3), width: 480, height: 270)))
        try check(
            "mesh-seed-bilinear",
            Fixture.render(
                try Fixture.seedMeshJob(center: (0.9, 0.3), smooth: false, width: 480, height: 270)))
    }

    func testShowcaseFrame() throws {
        let job = try Fixture.job(
            String(
                decoding: try Data(
                    contentsOf: Fixture.repositoryRoot.appendingPathComponent("jobs/showcase.json")),
                as: UTF8.self
            ).replacingOccurrences(of: "\"width\": 1920", with: "\"width\": 480").replacingOccurrences(
                of: "\"height\": 1080", with: "\"height\": 270"))
        try check("showcase-t3", Fixture.render(job, at: 3))
    }
}
