import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnScene
import XCTest

/// The hostile jobs of issue 20 whose numbers crashed `kiln render`: each is kept under
/// `Fixtures/Hostile/` and is now either refused with a diagnostic or rendered without trapping.
final class HostileNumberTests: XCTestCase {
    func testAnExtremeBezierEasingOnAPositionIsRefused() throws {
        let diagnostics = try refusal("bezier-position.json")
        let controls = "layers[0].position.keyframes[1].ease.cubicBezier"
        XCTAssertEqual(diagnostics.map(\.path.description), [controls + "[1]", controls + "[3]"])
        XCTAssertEqual(
            diagnostics.map(\.message), ["1e+20 is out of range -10…10", "-1e+20 is out of range -10…10"])
    }

    func testAnExtremeBezierEasingOnAMeshPointIsRefused() throws {
        let diagnostics = try refusal("mesh-point.json")
        XCTAssertEqual(diagnostics.map(\.path.description), ["layers[0].points[1].keyframes[1].ease"])
        XCTAssertEqual(
            diagnostics.map(\.message), ["cubicBezier y1 and y2 must be in -10…10, got 1e+300 and -1e+300"])
    }

    func testAFrameRateWithNegativePartsIsRefused() throws {
        let diagnostics = try refusal("negative-frame-rate.json")
        XCTAssertEqual(diagnostics.map(\.path.description), ["output.fps"])
        XCTAssertEqual(
            diagnostics.map(\.message),
            ["invalid frame rate '-30/-1'; the numerator and denominator must be positive"])
    }

    /// Every number is within its range, but a hundred nested groups scaling by 10⁶ each make the
    /// innermost transform infinite (and NaN where infinity meets a zero): nothing is drawn.
    func testTransformsThatOverflowDrawNothing() throws {
        // 100 nested groups: the default nesting limit refuses them first; past it, the
        // overflowing transform must still draw nothing rather than trap.
        let refused = try refusal("nested-scale-overflow.json")
        XCTAssertTrue(refused.contains { $0.message.contains("nesting") }, "\(refused)")
        let job = try HostileFixture.job(
            "nested-scale-overflow.json", limits: ResourceLimits(overrides: ["nesting": 128]))
        for frame in 0..<job.output.frameCount {
            let pixels = Fixture.render(job, at: Double(frame) / job.output.frameRate.doubleValue)
            let background = SIMD4<UInt8>(0, 0, 0, 255)
            let drawn = (0..<pixels.height).flatMap { y in
                (0..<pixels.width).map { pixels.pixel(x: $0, y: y) }
            }
            XCTAssertEqual(Set(drawn), [background], "frame \(frame)")
        }
    }

    /// A response of 1e-320 s is within (0, 10] but makes ω infinite: the spring has arrived.
    func testASpringTooFastToComputeHasArrived() throws {
        let job = try HostileFixture.job("spring-denormal-response.json")
        let pixels = Fixture.render(job, at: 0.1)
        XCTAssertEqual(pixels.pixel(x: 40, y: 20), SIMD4(255, 0, 0, 255))
        XCTAssertEqual(pixels.pixel(x: 5, y: 5), SIMD4(0, 0, 0, 255))
    }

    private func refusal(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> [Diagnostic]
    {
        do {
            _ = try HostileFixture.job(name)
        } catch .invalid(let diagnostics) {
            return diagnostics
        } catch {
            XCTFail("expected diagnostics, got \(error)", file: file, line: line)
            return []
        }
        XCTFail("\(name) was accepted", file: file, line: line)
        return []
    }
}
