import Foundation
import KilnModel
import KilnRaster
import KilnScene
import XCTest

/// What docs/job-format.md promises of a text's `background` pills and `stroke`: pills of
/// padded lines that overlap join instead of doubling, and colour emoji get no outline.
final class TextDecorationTests: XCTestCase {
    func textJob(_ text: String, extra: String) throws -> Job {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 320, "height": 200, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#000000"},
                        {"type": "text", "text": "\(text)", "size": 40, "position": [160, 100]\(extra)}]}
            """)
    }

    /// Two lines whose pills overlap by tens of pixels: a half-transparent white pill over black
    /// shows green 128 wherever it is, never the 191 two pills drawn one over the other would
    /// make (the glyphs are red, so they add no green).
    func testOverlappingPillsJoinInsteadOfDoubling() throws {
        let job = try textJob(
            #"AB\nCD"#,
            extra: ##", "color": "#ff0000", "background": {"color": "#ffffff80", "padding": [24, 30]}"##)
        let frame = Fixture.render(job)
        var greenest = 0, pill = 0
        for y in 0..<200 {
            for x in 0..<320 {
                let g = Int(frame.pixel(x: x, y: y).y)
                greenest = max(greenest, g)
                if (126...130).contains(g) { pill += 1 }
            }
        }
        XCTAssertGreaterThan(pill, 3000, "the pills are drawn")
        XCTAssertLessThanOrEqual(greenest, 130, "where the pills overlap they are drawn once")
    }

    /// A colour emoji keeps its own picture: a stroke draws nothing around it (the text beside
    /// it still gets one).
    func testColorEmojiGetNoStroke() throws {
        let stroke = ##", "stroke": {"color": "#0000ff", "width": 6}"##
        let emoji = try textJob("\u{1F600}", extra: stroke)
        let plain = try textJob("\u{1F600}", extra: "")
        let drawn = Fixture.render(emoji)
        var yellow = 0
        for y in 0..<200 {
            for x in 0..<320 {
                let p = drawn.pixel(x: x, y: y)
                if p.x > 150, p.y > 100, p.z < 100 { yellow += 1 }
            }
        }
        XCTAssertGreaterThan(yellow, 200, "the emoji is drawn in its own colours")
        XCTAssertEqual(drawn.byteArray, Fixture.render(plain).byteArray)
        let letters = try textJob("Hi", extra: stroke)
        let lettersPlain = try textJob("Hi", extra: "")
        XCTAssertNotEqual(Fixture.render(letters).byteArray, Fixture.render(lettersPlain).byteArray)
    }
}
