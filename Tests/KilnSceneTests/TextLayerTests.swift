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

    func testTextRendersInItsColorAndIsThreadIndependent() throws {
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

    func testAnimatedColorChangesWithoutRelayout() throws {
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

    /// A stroked text fading in by its reveal fades as one picture: white glyphs over a red
    /// stroke are never redder than the fade lets one picture be, as red as the same text in red
    /// without a stroke; faded apart, the stroke's red would add under the half-faded glyphs.
    func testAStrokedRevealFadesStrokeAndGlyphsTogether() throws {
        let reveal =
            ##", "reveal": {"by": "line", "at": 0.5, "elementDuration": 0.8, "totalDuration": 0.8}"##
        let stroked = try textJob(
            "I", extra: ##", "color": "#ffffff", "stroke": {"color": "#ff0000", "width": 6}"## + reveal)
        let plain = try textJob("I", extra: ##", "color": "#ff0000""## + reveal)
        func reddest(_ job: Job) -> Int {
            let frame = Fixture.render(job, at: 0.98)
            var most = 0
            for y in 0..<120 { for x in 0..<320 { most = max(most, Int(frame.pixel(x: x, y: y).x)) } }
            return most
        }
        let fade = reddest(plain)
        XCTAssertGreaterThan(fade, 20, "part-way in")
        XCTAssertLessThan(fade, 240, "part-way in")
        // Faded apart, the stroke would add about α(1 − α) of red, some 50 codes here; the thin
        // stem, still a little blurred, lets the plain text's peak fall a few codes short.
        XCTAssertLessThanOrEqual(abs(reddest(stroked) - fade), 10, "the stroke shows through the glyphs")
        XCTAssertEqual(
            Fixture.renderYUV(stroked, at: 0.98, threads: 1), Fixture.renderYUV(stroked, at: 0.98, threads: 3)
        )
    }

    /// Emphasis: the marked word reveals glyph by glyph while the rest has fully faded in after
    /// 0.2 s; a range outside the text is an error at its path.
    func testEmphasisRevealsOnlyTheMarkedGlyphs() throws {
        let reveal = #", "reveal": {"by": "glyph", "at": 0, "totalDuration": 2, "elementDuration": 0.5}"#
        let job = try textJob("ab WORD", extra: reveal + #", "emphasis": [[3, 7]]"#)
        let frame = Fixture.render(job, at: 0.25)
        // "ab" (the left half) is in at 0.25 s; "WORD" (the right half) is still revealing.
        func ink(_ frame: RGBA8Frame, _ columns: Range<Int>) -> Int {
            var sum = 0
            for y in 0..<120 { for x in columns { sum += Int(frame.pixel(x: x, y: y).x) } }
            return sum
        }
        XCTAssertGreaterThan(ink(frame, 0..<160), 0)
        XCTAssertLessThan(
            ink(frame, 160..<320), ink(Fixture.render(job, at: 2.5), 160..<320), "WORD still revealing")
        XCTAssertThrowsError(try textJob("ab", extra: reveal + #", "emphasis": [[1, 9]]"#)) { error in
            XCTAssertTrue("\(error)".contains("emphasis[0]"), "\(error)")
        }
        XCTAssertThrowsError(try textJob("ab", extra: #", "emphasis": [[0, 1]]"#)) { error in
            XCTAssertTrue("\(error)".contains("add a reveal"), "\(error)")
        }
    }

    func testExampleFrames() throws {
        let job = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/text.json").path)
        XCTAssertEqual(
            Fixture.renderYUV(job, at: 1.5, threads: 1), Fixture.renderYUV(job, at: 1.5, threads: 3))
    }
}
