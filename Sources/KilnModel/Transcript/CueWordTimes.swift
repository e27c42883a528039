/// WebVTT's word timing: a timestamp tag inside cue text (`Never <00:00:01.500>gonna`) says when
/// the text after it is said. The tags are stripped from the text as every tag is
/// (`CueText.plainText`); this finds where in that plain text each one stood.
enum CueWordTimes {
    /// A timestamp tag: on which of the cue's text lines, after how many visible (not white
    /// space) characters of the cue's plain text, and the time it gives.
    struct Mark {
        let lineIndex: Int
        let visibleBefore: Int
        let start: Double
        let written: String
    }

    /// Longest inside of a timestamp tag (`hhhhhhhhh:mm:ss.ttt` is past any real file): a `<`
    /// looks this far for its `>`, so a hostile line of `<`s stays linear.
    private static let longestTag = 24

    static func marks(in lines: [String]) -> [Mark] {
        var marks: [Mark] = []
        var visible = 0
        for (index, line) in lines.enumerated() {
            var pieceStart = line.startIndex
            var search = line.startIndex
            while let open = line[search...].firstIndex(of: "<") {
                search = line.index(after: open)
                guard let first = line[search...].first, first.isASCII, first.isNumber,
                    let close = line[search...].prefix(longestTag).firstIndex(of: ">"),
                    let seconds = CueTiming.timestamp(line[search..<close])
                else { continue }
                visible += visibleCount(line[pieceStart..<open])
                marks.append(
                    Mark(
                        lineIndex: index, visibleBefore: visible, start: seconds,
                        written: String(line[search..<close])))
                pieceStart = line.index(after: close)
                search = pieceStart
            }
            visible += visibleCount(line[pieceStart...])
        }
        return marks
    }

    /// Characters shown that are not white space: the plain text keeps these whatever the
    /// trimming and joining of lines, so they place a mark in it.
    private static func visibleCount(_ piece: Substring) -> Int {
        let shown = CueText.decodeReferences(CueText.stripTags(String(piece), markup: .webVTT))
        return shown.reduce(0) { $0 + ($1.isWhitespace ? 0 : 1) }
    }

    /// The marks as UTF-8 offsets of `text` (the cue's plain text); a mark after the last
    /// visible character says when nothing is said and is dropped.
    static func wordTimes(_ marks: [Mark], in text: String) -> [TranscriptLine.WordTime] {
        guard !marks.isEmpty else { return [] }
        var offsets: [Int] = []
        var offset = 0
        for character in text {
            if !character.isWhitespace { offsets.append(offset) }
            offset += character.utf8.count
        }
        return marks.compactMap { mark in
            offsets.indices.contains(mark.visibleBefore)
                ? TranscriptLine.WordTime(offset: offsets[mark.visibleBefore], start: mark.start) : nil
        }
    }
}
