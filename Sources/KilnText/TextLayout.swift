/// Text laid out into lines → runs → glyphs, in the text's own pixels (origin at the top-left of
/// its box, y down), so effects can animate any level: HarfBuzz shapes each run in one font,
/// characters the requested font lacks come from fontconfig's best fallback (CJK, emoji), and
/// lines break where UAX #14 allows (libunibreak), within `maxWidth`: greedily, or balanced.
public struct TextLayout: Sendable {
    public enum Alignment: String, Sendable, CaseIterable {
        case leading, center, trailing
    }

    /// How a paragraph (the text between `\n`s) is broken into lines within `maxWidth`.
    public enum Wrap: String, Sendable, CaseIterable {
        /// Each line takes as many words as fit: the last line may be a lone word.
        case greedy
        /// As many lines as greedy breaking gives, broken at the narrowest width that still
        /// gives that many (CSS `text-wrap: balance`): the lines come out of even length and a
        /// short last line borrows words from the ones above it.
        case balanced
    }

    /// How close (pixels) the balanced width comes to the narrowest that keeps the line count:
    /// far below what changes where a line breaks in practice, and a handful of greedy passes.
    static let balanceTolerance = 0.25

    public struct Glyph: Sendable {
        public let face: FontFace
        public let glyph: UInt32
        /// The glyph's origin on the baseline.
        public let position: SIMD2<Double>
        /// UTF-8 offset of the glyph's cluster in the text.
        public let cluster: Int
    }

    /// Glyphs of one font in one line.
    public struct Run: Sendable {
        public let face: FontFace
        public let glyphs: [Glyph]
    }

    public struct Line: Sendable {
        public let runs: [Run]
        /// The baseline's y.
        public let baseline: Double
        /// Left edge and width of the line's ink advance (trailing spaces excluded).
        public let x: Double
        public let width: Double
        /// UTF-8 range of the text the line covers (its trailing spaces and line break included).
        public let range: Range<Int>
    }

    public let text: String
    public let lines: [Line]
    /// The box: `maxWidth` (or the widest line) × the lines' height.
    public let size: SIMD2<Double>
    public let ascender: Double
    public let descender: Double
    public let lineAdvance: Double

    public var glyphs: [Glyph] { lines.flatMap { $0.runs.flatMap(\.glyphs) } }

    public init(
        text: String, font: FontDescriptor, size: Double, lineHeight: Double? = nil, maxWidth: Double? = nil,
        wrap: Wrap = .greedy, alignment: Alignment = .leading, library: FontLibrary
    ) throws(TextError) {
        let primary = try library.face(for: font, size: size)
        self.text = text
        ascender = primary.ascender
        descender = primary.descender
        lineAdvance = lineHeight.map { $0 * size } ?? (primary.ascender + primary.descender + primary.lineGap)

        // Runs of characters that one face draws.
        var pieces: [(face: FontFace, start: Int, text: String)] = []
        var offset = 0
        for character in text {
            var face = primary
            if character.isEmojiLike || !primary.covers(character), !character.isNewline {
                face = library.fallback(for: character, like: font, size: size) ?? primary
            }
            if let last = pieces.last, last.face === face {
                pieces[pieces.count - 1].text.append(character)
            } else {
                pieces.append((face, offset, String(character)))
            }
            offset += character.utf8.count
        }
        // Shaped glyphs in text order with their absolute clusters.
        var shaped: [(face: FontFace, glyph: ShapedGlyph, cluster: Int)] = []
        for piece in pieces {
            for glyph in piece.face.shape(piece.text) {
                shaped.append((piece.face, glyph, piece.start + glyph.cluster))
            }
        }
        let breaks = LineBreaks.opportunities(in: text)
        let bytes = Array(text.utf8)
        func isSpace(_ cluster: Int) -> Bool {
            cluster < bytes.count && (bytes[cluster] == 0x20 || bytes[cluster] == 0x09)
        }
        func isNewline(_ cluster: Int) -> Bool {
            cluster < bytes.count && (bytes[cluster] == 0x0A || bytes[cluster] == 0x0D)
        }
        // A line may start at glyph i when a break is allowed just before its cluster.
        func breakBefore(_ i: Int) -> LineBreaks.Opportunity {
            let cluster = shaped[i].cluster
            guard cluster > 0, cluster - 1 < breaks.count else { return .none }
            return breaks[cluster - 1]
        }

        // Paragraphs: the glyph ranges between mandatory breaks (each keeps its line break).
        var paragraphs: [Range<Int>] = []
        var paragraphStart = 0
        for i in shaped.indices where i > paragraphStart && breakBefore(i) == .mandatory {
            paragraphs.append(paragraphStart..<i)
            paragraphStart = i
        }
        paragraphs.append(paragraphStart..<shaped.count)

        // Greedy breaking of one paragraph over glyph indices. Within a paragraph the advances
        // only add up, so the line count can only fall as `limit` grows: what balancing's
        // search relies on.
        func greedy(_ paragraph: Range<Int>, within limit: Double?) -> [Range<Int>] {
            var lines: [Range<Int>] = []
            var start = paragraph.lowerBound, width = 0.0, lastBreak: Int?
            var i = start
            while i < paragraph.upperBound {
                if i > start, breakBefore(i) == .allowed { lastBreak = i }
                width += shaped[i].glyph.advance
                if let limit, width > limit, !isSpace(shaped[i].cluster), let cut = lastBreak, cut > start {
                    lines.append(start..<cut)
                    (start, width, lastBreak) = (cut, 0, nil)
                    i = cut
                    continue
                }
                i += 1
            }
            lines.append(start..<paragraph.upperBound)
            return lines
        }
        // The narrowest width (within the tolerance) at which greedy breaking still gives as
        // many lines as at `limit`: no line is wider than it, so none is wider than `limit`.
        func balanced(_ paragraph: Range<Int>, within limit: Double) -> [Range<Int>] {
            let lines = greedy(paragraph, within: limit)
            guard lines.count > 1 else { return lines }
            var (tooNarrow, wideEnough) = (0.0, limit)
            while wideEnough - tooNarrow > Self.balanceTolerance {
                let middle = (tooNarrow + wideEnough) / 2
                if greedy(paragraph, within: middle).count > lines.count {
                    tooNarrow = middle
                } else {
                    wideEnough = middle
                }
            }
            return greedy(paragraph, within: wideEnough)
        }
        let lineRanges = paragraphs.flatMap { paragraph in
            if wrap == .balanced, let maxWidth {
                balanced(paragraph, within: maxWidth)
            } else {
                greedy(paragraph, within: maxWidth)
            }
        }

        // Positions: spaces and newlines at a line's end take no width, for alignment.
        var measured: [(range: Range<Int>, width: Double)] = []
        for range in lineRanges {
            var end = range.upperBound
            while end > range.lowerBound,
                isSpace(shaped[end - 1].cluster) || isNewline(shaped[end - 1].cluster)
            {
                end -= 1
            }
            let ink = shaped[range.lowerBound..<end].reduce(0) { $0 + $1.glyph.advance }
            measured.append((range.lowerBound..<end, ink))
        }
        let boxWidth = maxWidth ?? (measured.map(\.width).max() ?? 0)
        var lines: [Line] = []
        for (index, line) in measured.enumerated() {
            let baseline = primary.ascender + Double(index) * lineAdvance
            var x: Double
            switch alignment {
            case .leading: x = 0
            case .center: x = (boxWidth - line.width) / 2
            case .trailing: x = boxWidth - line.width
            }
            let left = x
            // Each run's glyphs are gathered in one array and the run made once: rebuilding a
            // run per glyph would cost the square of the line's length.
            var runs: [Run] = []
            var runGlyphs: [Glyph] = []
            for k in line.range {
                let item = shaped[k]
                if let face = runGlyphs.first?.face, face !== item.face {
                    runs.append(Run(face: face, glyphs: runGlyphs))
                    runGlyphs.removeAll(keepingCapacity: true)
                }
                runGlyphs.append(
                    Glyph(
                        face: item.face, glyph: item.glyph.glyph,
                        position: SIMD2(x + item.glyph.offset.x, baseline + item.glyph.offset.y),
                        cluster: item.cluster))
                x += item.glyph.advance
            }
            if let face = runGlyphs.first?.face { runs.append(Run(face: face, glyphs: runGlyphs)) }
            // The text the line covers runs to where the next line starts (its trailing spaces
            // and line break included).
            let first = lineRanges[index].isEmpty ? bytes.count : shaped[lineRanges[index].lowerBound].cluster
            let next =
                index + 1 < lineRanges.count && !lineRanges[index + 1].isEmpty
                ? shaped[lineRanges[index + 1].lowerBound].cluster : bytes.count
            lines.append(
                Line(
                    runs: runs, baseline: baseline, x: left, width: line.width,
                    range: first..<max(first, next)))
        }
        self.lines = lines
        let height =
            measured.isEmpty
            ? 0 : primary.ascender + primary.descender + Double(measured.count - 1) * lineAdvance
        self.size = SIMD2(boxWidth, height)
    }
}
