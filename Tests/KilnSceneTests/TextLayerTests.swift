import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnScene
import XCTest

/// Text layers: the example job against goldens, thread independence, the animated colour, and
/// a missing font as a job error naming it at its JSON path.
final class TextLayerTests: XCTestCase {
    func textJob(_ text: String, extra: String = "") throws -> Job {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 320, "height": 120, "fps": 30, "duration": 2},
             "layers": [{"type": "solid", "color": "#000000"},
                        {"type": "text", "text": "\(text)", "size": 40, "position": [160, 60]\(extra)}]}
            """)
    }

    func testTextRendersInItsColourAndIsThreadIndependent() throws {
        let job = try textJob("Hello", extra: ##", "color": "#ff0000""##)
        let frame = Fixture.render(job)
        var red = 0, other = 0
        for y in 0..<120 {
            for x in 0..<320 {
                let p = frame.pixel(x: x, y: y)
                if p.x > 128 { red += 1 }
                if p.y > 40 || p.z > 40 { other += 1 }
            }
        }
        XCTAssertGreaterThan(red, 300, "the glyphs are drawn")
        XCTAssertEqual(other, 0, "in red only")
        XCTAssertEqual(Fixture.renderYUV(job, threads: 1), Fixture.renderYUV(job, threads: 3))
    }

    func testAnimatedColourChangesWithoutRelayout() throws {
        let job = try textJob(
            "Hi", extra: ##", "color": {"keyframes": [{"t": 0, "v": "#ff0000"}, {"t": 2, "v": "#0000ff"}]}"##)
        let start = Fixture.render(job, at: 0), end = Fixture.render(job, at: 2)
        var startRed = 0, endBlue = 0
        for y in 0..<120 {
            for x in 0..<320 {
                if start.pixel(x: x, y: y).x > 128 { startRed += 1 }
                if end.pixel(x: x, y: y).z > 128 { endBlue += 1 }
            }
        }
        XCTAssertGreaterThan(startRed, 100)
        XCTAssertEqual(startRed, endBlue, "the same glyph pixels, another colour")
    }

    func testMissingFontIsAJobErrorAtItsPath() {
        XCTAssertThrowsError(try textJob("x", extra: #", "font": "Nowhere Sans Kiln""#)) { error in
            guard case .invalid(let diagnostics)? = error as? JobLoadError else { return XCTFail("\(error)") }
            XCTAssertTrue(
                diagnostics.contains {
                    "\($0.path)" == "layers[1].font" && $0.message.contains("Nowhere Sans Kiln")
                },
                "\(diagnostics)")
        }
    }

    /// Glyph by glyph: before the reveal nothing, during it the first glyphs only (faded, blurred,
    /// dropped), after it the whole text exactly as without a reveal.
    func testRevealByGlyph() throws {
        let reveal = #", "reveal": {"by": "glyph", "at": 0.5, "elementDuration": 0.4, "totalDuration": 0.9}"#
        let job = try textJob("Reveal", extra: reveal)
        let plain = try textJob("Reveal")
        func ink(_ frame: RGBA8Frame) -> Int {
            var sum = 0
            for y in 0..<120 { for x in 0..<320 { sum += Int(frame.pixel(x: x, y: y).x) } }
            return sum
        }
        XCTAssertEqual(ink(Fixture.render(job, at: 0.4)), 0, "before the reveal")
        let early = ink(Fixture.render(job, at: 0.7)), later = ink(Fixture.render(job, at: 1.0))
        let full = ink(Fixture.render(plain, at: 1.5))
        XCTAssertGreaterThan(early, 0)
        XCTAssertLessThan(early, later)
        XCTAssertLessThan(later, full)
        XCTAssertEqual(
            Fixture.render(job, at: 1.5).byteArray, Fixture.render(plain, at: 1.5).byteArray, "after it")
        XCTAssertEqual(
            Fixture.renderYUV(job, at: 0.8, threads: 1), Fixture.renderYUV(job, at: 0.8, threads: 3))
    }

    func testExampleFrames() throws {
        let job = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/text.json").path)
        XCTAssertEqual(
            Fixture.renderYUV(job, at: 1.5, threads: 1), Fixture.renderYUV(job, at: 1.5, threads: 3))
    }
}
