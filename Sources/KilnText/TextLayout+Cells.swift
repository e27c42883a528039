extension TextLayout {
    /// This layout with each of its clusters moved to be centred where the same cluster sits in
    /// `cells`: the same text set in another weight, broken into the same lines (line by line,
    /// each of this layout's lines the start of the same line of `cells`). Two weights placed
    /// so cross-fade as one text whose strokes thicken in place, where each at its own advances
    /// would show twice, the wider weight's glyphs drifting further right along the line.
    ///
    /// Clusters keep their own glyphs and the offsets within them; only where they sit
    /// changes. A line whose clusters do not match (a ligature one weight has and the other
    /// lacks) is stretched evenly onto its counterpart's span instead; lines past `cells`' are
    /// left where they are.
    public func centred(onCellsOf cells: TextLayout) -> TextLayout {
        let moved = lines.enumerated().map { index, line in
            guard cells.lines.indices.contains(index) else { return line }
            return line.centred(onCellsOf: cells.lines[index])
        }
        return TextLayout(self, lines: moved)
    }

    private init(_ base: TextLayout, lines: [Line]) {
        (text, size, ascender, descender, lineAdvance) = (
            base.text, base.size, base.ascender, base.descender, base.lineAdvance
        )
        self.lines = lines
    }
}

extension TextLayout.Line {
    /// A cluster's span of the pen: from its first glyph's pen position to the next
    /// cluster's (the line's ink end for the last), keyed by its offset from the line's start.
    struct Cell {
        let cluster: Int
        let start: Double
        var end: Double
        var centre: Double { (start + end) / 2 }
    }

    var cells: [Cell] {
        var cells: [Cell] = []
        for glyph in runs.flatMap(\.glyphs) {
            let cluster = glyph.cluster - range.lowerBound
            if let last = cells.last, last.cluster == cluster { continue }
            if !cells.isEmpty { cells[cells.count - 1].end = glyph.position.x }
            cells.append(Cell(cluster: cluster, start: glyph.position.x, end: glyph.position.x))
        }
        if !cells.isEmpty { cells[cells.count - 1].end = x + width }
        return cells
    }

    func centred(onCellsOf other: TextLayout.Line) -> TextLayout.Line {
        let mine = cells, theirs = other.cells
        var shift: [Int: Double] = [:]
        if mine.map(\.cluster) == theirs.map(\.cluster) {
            for (a, b) in zip(mine, theirs) { shift[a.cluster] = b.centre - a.centre }
        }
        let scale = width > 0 ? other.width / width : 1, left = x
        let runs = runs.map { run in
            TextLayout.Run(
                face: run.face,
                glyphs: run.glyphs.map { glyph in
                    let moved =
                        shift[glyph.cluster - range.lowerBound].map { glyph.position.x + $0 }
                        ?? other.x + (glyph.position.x - left) * scale
                    return TextLayout.Glyph(
                        face: glyph.face, glyph: glyph.glyph, position: SIMD2(moved, glyph.position.y),
                        cluster: glyph.cluster)
                })
        }
        return TextLayout.Line(runs: runs, baseline: baseline, x: other.x, width: other.width, range: range)
    }
}
