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
        var colorful = 0
        for i in stride(from: 0, to: bitmap.premultipliedRGBA.count, by: 4) {
            let (r, g, b) = (
                Int(bitmap.premultipliedRGBA[i]), Int(bitmap.premultipliedRGBA[i + 1]),
                Int(bitmap.premultipliedRGBA[i + 2])
            )
            if max(r, g, b) - min(r, g, b) > 80 { colorful += 1 }
        }
        XCTAssertGreaterThan(colorful, 50)
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

    /// The words of each line of a layout.
    func words(_ layout: TextLayout) -> [[Substring]] {
        let utf8 = Array(layout.text.utf8)
        return layout.lines.map {
            String(decoding: utf8[$0.range], as: UTF8.self).split(whereSeparator: \.isWhitespace).map { $0 }
        }
    }

    func layout(_ text: String, within width: Double, _ wrap: TextLayout.Wrap) throws -> TextLayout {
        try TextLayout(
            text: text, font: FontDescriptor(family: "Noto Sans", weight: 700), size: 54, maxWidth: width,
            wrap: wrap, library: library)
    }

    /// The podcast's line: greedy breaking leaves "offline." alone on the second line; balanced
    /// breaking keeps two lines and moves words down until they are as even as they go.
    func testBalancedWrapEvensOutALoneLastWord() throws {
        let text = "Today we are talking about baking video offline."
        let greedy = try layout(text, within: 1100, .greedy)
        XCTAssertEqual(words(greedy).map(\.count), [7, 1], "the case balancing is for")
        let balanced = try layout(text, within: 1100, .balanced)
        XCTAssertEqual(balanced.lines.count, greedy.lines.count)
        XCTAssertEqual(
            words(balanced).map { $0.joined(separator: " ") },
            ["Today we are talking", "about baking video offline."])
        let widths = balanced.lines.map(\.width)
        XCTAssertLessThan(widths.max()! - widths.min()!, 0.3 * widths.max()!, "\(widths)")
        XCTAssertLessThan(widths.max()!, greedy.lines.map(\.width).max()!)
        // The box is still the width asked for: alignment is within it, not within the lines.
        XCTAssertEqual(balanced.size.x, 1100)
        XCTAssertEqual(balanced.lines.map(\.range.count).reduce(0, +), text.utf8.count, "every byte once")
    }

    func testALineThatFitsStaysOneLine() throws {
        let greedy = try layout("Welcome back to the show.", within: 1100, .greedy)
        let balanced = try layout("Welcome back to the show.", within: 1100, .balanced)
        XCTAssertEqual(balanced.lines.count, 1)
        XCTAssertEqual(balanced.lines[0].width, greedy.lines[0].width)
        XCTAssertEqual(balanced.glyphs.map(\.position), greedy.glyphs.map(\.position))
    }

    /// Over many widths: the same line count as greedy breaking, no line wider than the limit,
    /// never a wider widest line than greedy's, and each paragraph (between \n) balanced on its
    /// own, so a short paragraph is not stretched to a long one's width.
    func testBalancedLinesKeepTheCountAndStayWithinTheLimit() throws {
        let text = """
            Kiln reads a timeline written as a plain JSON file, and renders every frame on the processor.
            Short.
            When a new line starts, the list springs to keep it centred, and a small timestamp hangs under it.
            """
        for limit in stride(from: 400.0, through: 2600, by: 137) {
            let greedy = try layout(text, within: limit, .greedy)
            let balanced = try layout(text, within: limit, .balanced)
            XCTAssertEqual(balanced.lines.count, greedy.lines.count, "within \(limit)")
            for line in balanced.lines { XCTAssertLessThanOrEqual(line.width, limit, "within \(limit)") }
            XCTAssertLessThanOrEqual(
                balanced.lines.map(\.width).max()!, greedy.lines.map(\.width).max()!, "within \(limit)")
            XCTAssertTrue(words(balanced).contains(["Short."]), "within \(limit): \(words(balanced))")
            XCTAssertEqual(balanced.lines.map(\.range.count).reduce(0, +), text.utf8.count)
        }
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

    /// A cluster's span of the pen in a layout set at its own advances: from its glyph to the
    /// next one's (the line's ink end for the last).
    func spans(_ line: TextLayout.Line) -> [(start: Double, end: Double)] {
        let starts = line.runs.flatMap(\.glyphs).map(\.position.x)
        return zip(starts, starts.dropFirst() + [line.x + line.width]).map { ($0, $1) }
    }

    /// The regular weight moved onto the bold weight's places (what the transcript cross-fades):
    /// each letter centred on the bold letter's span, the line as long as the bold one.
    func testALayoutCentredOnAnothersCellsPutsEachLetterOnItsPlace() throws {
        let text = "Today we are talking"
        func layout(_ weight: Int) throws -> TextLayout {
            try TextLayout(
                text: text, font: FontDescriptor(family: "Noto Sans", weight: weight), size: 54,
                library: library)
        }
        let regular = try layout(400), bold = try layout(700)
        let moved = regular.centred(onCellsOf: bold)
        XCTAssertGreaterThan(bold.lines[0].width - regular.lines[0].width, 10, "the bold weight is wider")
        XCTAssertEqual(moved.lines[0].x, bold.lines[0].x)
        XCTAssertEqual(moved.lines[0].width, bold.lines[0].width)
        XCTAssertEqual(moved.size, regular.size)
        let own = spans(regular.lines[0]), places = spans(bold.lines[0])
        let glyphs = moved.lines[0].runs.flatMap(\.glyphs)
        XCTAssertEqual(glyphs.count, own.count)
        for (index, (glyph, (span, place))) in zip(glyphs, zip(own, places)).enumerated() {
            let centre = glyph.position.x + (span.end - span.start) / 2
            XCTAssertEqual(centre, (place.start + place.end) / 2, accuracy: 1e-9, "letter \(index)")
        }
    }

    /// Lines whose clusters differ (here, a shorter text) are stretched evenly onto the other
    /// line's span instead.
    func testALineWhoseClustersDifferIsStretchedOntoTheOthers() throws {
        let font = FontDescriptor(family: "Noto Sans")
        let short = try TextLayout(text: "abc", font: font, size: 40, library: library)
        let long = try TextLayout(text: "abcdef", font: font, size: 40, library: library)
        let moved = short.centred(onCellsOf: long)
        let scale = long.lines[0].width / short.lines[0].width
        for (before, after) in zip(short.glyphs, moved.glyphs) {
            XCTAssertEqual(after.position.x, before.position.x * scale, accuracy: 1e-9)
            XCTAssertEqual(after.position.y, before.position.y)
        }
    }
}
