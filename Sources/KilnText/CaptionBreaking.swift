/// Where a caption breaks into lines: at UAX #14 opportunities (libunibreak), each line at most
/// `maxCharacters` characters and `maxWidth` pixels wide (a word longer than that stands alone),
/// in as few lines as that allows. Balanced, of the ways to break into that many lines it takes
/// the one whose widest line is narrowest (two lines come out nearly equal, where filling each
/// line greedily leaves a long line over a short one); ties go to the longer lower line, as
/// subtitle style guides ask.
public enum CaptionBreaking {
    /// The text between two break opportunities: a word with its trailing spaces, or an
    /// ideograph.
    struct Unit {
        let start: Int
        let characters: Int
        let inkCharacters: Int
        let width: Double
        let inkWidth: Double
    }

    /// Above this many units the balancing's search (units × lines × units per line) is not
    /// worth it: a caption is a sentence or two, and a longer cue is broken greedily.
    static let balancingLimit = 600

    /// The UTF-8 offsets in `line.text` at which the lines after the first start.
    /// - Parameter line: the text laid out on one line (no width, no line breaks), which gives
    ///   each glyph's advance.
    public static func lineStarts(
        of line: TextLayout, maxCharacters: Int, maxWidth: Double, balanced: Bool
    ) -> [Int] {
        let units = units(of: line)
        guard units.count > 1 else { return [] }
        // Prefix sums: a line of units i..<j is the full units before j − 1 and the ink of j − 1.
        var characters = [0], widths = [0.0]
        for unit in units {
            characters.append(characters.last! + unit.characters)
            widths.append(widths.last! + unit.width)
        }
        func width(_ i: Int, _ j: Int) -> Double { widths[j - 1] - widths[i] + units[j - 1].inkWidth }
        func fits(_ i: Int, _ j: Int) -> Bool {
            j == i + 1
                || (characters[j - 1] - characters[i] + units[j - 1].inkCharacters <= maxCharacters
                    && width(i, j) <= maxWidth)
        }
        var greedy: [Int] = []
        var start = 0
        while start < units.count {
            var end = start + 1
            while end < units.count, fits(start, end + 1) { end += 1 }
            if end < units.count { greedy.append(end) }
            start = end
        }
        guard balanced, !greedy.isEmpty, units.count <= balancingLimit else {
            return greedy.map { units[$0].start }
        }
        // best[c][j]: the narrowest widest line of units 0..<j in c lines, and where its last
        // line starts.
        let count = greedy.count + 1, n = units.count
        var best = [[(width: Double, from: Int)]](
            repeating: Array(repeating: (.infinity, -1), count: n + 1), count: count + 1)
        best[0][0] = (0, 0)
        for c in 1...count {
            for j in 1...n {
                var i = j - 1
                while i >= 0, fits(i, j) {
                    let previous = best[c - 1][i].width
                    if previous < .infinity {
                        let candidate = max(previous, width(i, j))
                        // `<=`: of equal widest lines, the one found last has the longer last line.
                        if candidate <= best[c][j].width { best[c][j] = (candidate, i) }
                    }
                    i -= 1
                }
            }
        }
        guard best[count][n].width < .infinity else { return greedy.map { units[$0].start } }
        var starts: [Int] = []
        var j = n
        for c in stride(from: count, to: 1, by: -1) {
            j = best[c][j].from
            starts.append(units[j].start)
        }
        return starts.reversed()
    }

    static func units(of line: TextLayout) -> [Unit] {
        let text = line.text
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return [] }
        // Each glyph's advance: the pen's step to the next glyph in visual order (a right-to-left
        // run's glyphs come reversed, so its steps are still the advances).
        var advance = [Double](repeating: 0, count: bytes.count)
        for laid in line.lines {
            let glyphs = laid.runs.flatMap(\.glyphs)
            for (k, glyph) in glyphs.enumerated() where advance.indices.contains(glyph.cluster) {
                let next = k + 1 < glyphs.count ? glyphs[k + 1].position.x : laid.x + laid.width
                advance[glyph.cluster] += abs(next - glyph.position.x)
            }
        }
        // In byte order, so that a width is the same sum whatever the glyphs' order.
        var advanceBefore = [0.0]
        for value in advance { advanceBefore.append(advanceBefore.last! + value) }
        let breaks = LineBreaks.opportunities(in: text)
        var starts = [0]
        for (offset, opportunity) in breaks.enumerated()
        where opportunity != .none && offset + 1 < bytes.count {
            starts.append(offset + 1)
        }
        var units: [Unit] = []
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1] : bytes.count
            var inkEnd = end
            while inkEnd > start,
                bytes[inkEnd - 1] == 0x20 || bytes[inkEnd - 1] == 0x09 || bytes[inkEnd - 1] == 0x0A
            {
                inkEnd -= 1
            }
            func measure(_ range: Range<Int>) -> (characters: Int, width: Double) {
                let piece = String(decoding: bytes[range], as: UTF8.self)
                return (piece.count, advanceBefore[range.upperBound] - advanceBefore[range.lowerBound])
            }
            let full = measure(start..<end), ink = measure(start..<inkEnd)
            units.append(
                Unit(
                    start: start, characters: full.characters, inkCharacters: ink.characters,
                    width: full.width, inkWidth: ink.width))
        }
        return units
    }
}
