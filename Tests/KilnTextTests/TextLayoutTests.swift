import KilnText
import XCTest

/// The text engine against installed fonts (the project's scripts install Noto): shaping,
/// fallback, line breaking, rasterization.
final class TextLayoutTests: XCTestCase {
    var library: FontLibrary!

    override func setUpWithError() throws {
        library = try FontLibrary.shared()
    }

    func testKerningAndLigaturesChangeTheShaping() throws {
        let face = try library.face(for: FontDescriptor(family: "Noto Sans"), size: 48)
        // "AV" kerns: its advance is less than A's plus V's.
        let pair = try TextLayout(
            text: "AV", font: FontDescriptor(family: "Noto Sans"), size: 48, library: library)
        let a = try TextLayout(
            text: "A", font: FontDescriptor(family: "Noto Sans"), size: 48, library: library)
        let v = try TextLayout(
            text: "V", font: FontDescriptor(family: "Noto Sans"), size: 48, library: library)
        XCTAssertLessThan(pair.size.x, a.size.x + v.size.x - 0.5, "kerning")
        // "ffi" becomes fewer glyphs than characters in a font with ligatures.
        let ligature = try TextLayout(
            text: "office", font: FontDescriptor(family: "Noto Serif"), size: 48, library: library)
        XCTAssertLessThan(ligature.glyphs.count, 6, "ligatures")
        XCTAssertEqual(face.family, "Noto Sans")
    }

    func testJapaneseAndEmojiComeFromFallbackFonts() throws {
        let layout = try TextLayout(
            text: "Hi 日本語 🎉", font: FontDescriptor(family: "Noto Sans"), size: 40, library: library)
        let families = Set(layout.glyphs.map(\.face.family))
        XCTAssertTrue(families.contains("Noto Sans"), "\(families)")
        XCTAssertTrue(families.contains { $0.contains("CJK") }, "\(families)")
        XCTAssertTrue(families.contains("Noto Color Emoji"), "\(families)")
        let emoji = try XCTUnwrap(layout.glyphs.last)
        XCTAssertTrue(emoji.face.isColor)
        let bitmap = emoji.face.bitmap(glyph: emoji.glyph, phase: 0)
        XCTAssertTrue(bitmap.isColor)
        // Colour pixels: some with red, green and blue far apart.
        var colourful = 0
        for i in stride(from: 0, to: bitmap.premultipliedRGBA.count, by: 4) {
            let (r, g, b) = (
                Int(bitmap.premultipliedRGBA[i]), Int(bitmap.premultipliedRGBA[i + 1]),
                Int(bitmap.premultipliedRGBA[i + 2])
            )
            if max(r, g, b) - min(r, g, b) > 80 { colourful += 1 }
        }
        XCTAssertGreaterThan(colourful, 50)
    }

    func testLongLinesBreakAtSpacesAndBetweenIdeographs() throws {
        let english = "The quick brown fox jumps over the lazy dog and keeps running far away"
        let layout = try TextLayout(
            text: english, font: FontDescriptor(family: "Noto Sans"), size: 32, maxWidth: 400,
            library: library)
        XCTAssertGreaterThan(layout.lines.count, 2)
        for line in layout.lines {
            XCTAssertLessThanOrEqual(line.width, 400.5)
            // Lines start at word starts.
            let start = english.utf8.index(english.utf8.startIndex, offsetBy: line.range.lowerBound)
            XCTAssertNotEqual(english[start], " ")
        }
        let japanese = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。"
        let cjk = try TextLayout(
            text: japanese, font: FontDescriptor(family: "Noto Sans CJK JP"), size: 32, maxWidth: 300,
            library: library)
        XCTAssertGreaterThan(cjk.lines.count, 2)
        for line in cjk.lines { XCTAssertLessThanOrEqual(line.width, 300.5) }
        // Every character shows up exactly once across the lines.
        XCTAssertEqual(cjk.lines.map(\.range.count).reduce(0, +), japanese.utf8.count)
    }

    func testMissingFontIsAnErrorNamingIt() {
        XCTAssertThrowsError(
            try library.face(for: FontDescriptor(family: "No Such Family Kiln"), size: 20)
        ) { error in
            XCTAssertTrue("\(error)".contains("No Such Family Kiln"), "\(error)")
        }
    }

    func testGlyphBitmapsAreCachedAndPhased() throws {
        let face = try library.face(for: FontDescriptor(family: "Noto Sans"), size: 30)
        let glyph = try XCTUnwrap(face.shape("g").first).glyph
        let a = face.bitmap(glyph: glyph, phase: 0), b = face.bitmap(glyph: glyph, phase: 2)
        XCTAssertGreaterThan(a.width, 0)
        XCTAssertNotEqual(a.premultipliedRGBA, b.premultipliedRGBA, "a half-pixel shift changes the coverage")
        XCTAssertEqual(face.bitmap(glyph: glyph, phase: 0).premultipliedRGBA, a.premultipliedRGBA)
    }
}
