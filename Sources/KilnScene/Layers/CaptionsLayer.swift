import Foundation
import KilnModel
import KilnRaster
import KilnText
import Synchronization

/// Subtitles from a transcript file: the current cue, broken into balanced lines of at most
/// `maxCharactersPerLine`, centred in the frame's safe area (bottom, top or centre), a pill
/// behind each line, and the word being said highlighted: at WebVTT's word times where the file
/// gives them, else at times spread over the cue by character count. Cues fade in and out,
/// except where one hands straight over to the next.
///
/// The layer's box is the frame's: placement is computed from the frame's size when the job
/// loads, so one job places its captions right at 16:9, 9:16 or 1:1.
public struct CaptionsLayer: LayerRendering {
    let box: SIMD2<Double>
    let transcript: Transcript
    let cues: [Cue]
    let color: Animated<RGBA>
    let highlight: Highlight
    let fade: Double
    let pictures: CuePictures

    /// One cue laid out: where its text sits in the box, its words and its line pills.
    struct Cue {
        let layout: TextLayout
        /// The layout's top-left in the box, on whole pixels.
        let origin: SIMD2<Double>
        let words: [Word]
        let background: TextLayer.Background?
        let start: Double
        let end: Double
        let fadeIn: Double
        let fadeOut: Double

        /// The index of the word being said at `time` (the last whose start has passed).
        func word(at time: Double) -> Int? {
            words.lastIndex { $0.start <= time }
        }

        /// The cue's opacity at `time`: ramps over its fades, 1 between them.
        func opacity(at time: Double) -> Double {
            var opacity = 1.0
            if fadeIn > 0 { opacity = min(opacity, (time - start) / fadeIn) }
            if fadeOut > 0 { opacity = min(opacity, (end - time) / fadeOut) }
            return min(max(opacity, 0), 1)
        }
    }

    /// A stretch of a cue between line-break opportunities that shows something (a word with
    /// its punctuation, an ideograph): highlighted from `start` on.
    struct Word {
        let glyphs: [TextLayout.Glyph]
        let start: Double
        /// Its ink advance in the layout: left, width, top and height.
        let box: (x: Double, width: Double, top: Double, height: Double)
    }

    struct Highlight {
        let color: Animated<RGBA>
        let background: Animated<RGBA>
        /// Whether the words already said keep the highlight colour (karaoke).
        let spoken: Bool
    }

    enum Placement: String, CaseIterable {
        case bottom, top, center
    }

    enum Key {
        static let path = ParameterKey<URL?>("path")
        static let font = ParameterKey<String>("font")
        static let weight = ParameterKey<String>("weight")
        static let size = ParameterKey<Animated<Double>>("size")
        static let color = ParameterKey<Animated<RGBA>>("color")
        static let highlight = ParameterKey<JSONNode?>("highlight")
        static let background = ParameterKey<JSONNode?>("background")
        static let placement = ParameterKey<String>("placement")
        static let safeArea = ParameterKey<Animated<Double>>("safeArea")
        static let maxCharactersPerLine = ParameterKey<Int>("maxCharactersPerLine")
        static let wrap = ParameterKey<String>("wrap")
        static let fade = ParameterKey<Animated<Double>>("fade")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.path, .assetPath,
            help:
                "subtitles: WebVTT (.vtt, word times as inline timestamps), SubRip (.srt) or transcript JSON; missing exits 66, malformed 65 naming its line"
        ),
        Parameter(Key.font, .string, default: .string("Noto Sans"), help: "font family"),
        Parameter(
            Key.weight, .choice(FontDescriptor.weightNames.sorted { $0.value < $1.value }.map(\.key)),
            default: .string("semibold"), help: "font weight, as text's"),
        Parameter(
            Key.size, .constantNumber(0...400), default: .number(0),
            help: "text size in pixels; 0 = a 18th of the frame's shorter side (60 px at 1080p)"),
        Parameter(
            Key.color, .color, default: .color(RGBA(r: 1, g: 1, b: 1, a: 1)),
            help: "colour of the words not highlighted"),
        Parameter(
            Key.highlight,
            .structured(
                "{\"color\", \"background\", \"spoken\"}", schema: ValueSchema.object(highlightTable)),
            default: .string("the current word in #ffd60a"),
            help:
                "how the word being said stands out: its colour, a pill behind it, and whether words already said stay coloured"
        ),
        Parameter(
            Key.background,
            .structured(
                "{\"color\", \"padding\", \"cornerRadius\"}", schema: ValueSchema.object(backgroundTable)),
            default: .string("a pill per line, #00000099"),
            help: "the rounded rectangle behind each line (a colour with alpha 0: none)"),
        Parameter(
            Key.placement, .choice(Placement.allCases.map(\.rawValue)), default: .string("bottom"),
            help: "where in the safe area the lines sit: bottom, top or center (horizontally centred)"),
        Parameter(
            Key.safeArea, .constantNumber(0...0.4), default: .number(0.1),
            help:
                "the margin kept clear on every side, as a fraction of the frame's width and height (0.1: title safe)"
        ),
        Parameter(
            Key.maxCharactersPerLine, .integer(1...1000), default: .integer(42),
            help: "characters a line holds at most (also kept within the safe area's width)"),
        Parameter(
            Key.wrap, .choice(TextLayout.Wrap.allCases.map(\.rawValue)), default: .string("balanced"),
            help:
                "balanced (as few lines as the limits allow, the widest as narrow as it goes) or greedy (each line as full as it goes)"
        ),
        Parameter(
            Key.fade, .constantNumber(0...5), default: .number(0.15),
            help: "seconds a cue fades in and out (at most a third of it); none where cues follow each other"),
    ])

    enum HighlightKey {
        static let color = ParameterKey<Animated<RGBA>>("color")
        static let background = ParameterKey<Animated<RGBA>>("background")
        static let spoken = ParameterKey<Bool>("spoken")
    }

    static let highlightTable = ParameterTable([
        Parameter(
            HighlightKey.color, .color, default: .color(RGBA(r: 1, g: 0.839, b: 0.039, a: 1)),
            help: "colour of the word being said; animatable"),
        Parameter(
            HighlightKey.background, .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0)),
            help: "a pill behind the word being said (alpha 0: none); animatable"),
        Parameter(
            HighlightKey.spoken, .boolean, default: .boolean(false),
            help: "true: the words already said keep the highlight colour (karaoke)"),
    ])

    static let backgroundTable = ParameterTable([
        Parameter(
            TextLayer.BackgroundKey.color, .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0.6)),
            help: "the fill, faded as one across the lines; animatable"),
        Parameter(
            TextLayer.BackgroundKey.padding, .point(0...400), default: .point(Point2(x: 22, y: 10)),
            help:
                "[horizontal, vertical] pixels around each line's ink advance and height (the value at 0 s places the lines)"
        ),
        Parameter(
            TextLayer.BackgroundKey.cornerRadius, .number(0...8192), default: .number(14),
            help: "corner radius in pixels, at most half the pill's height; animatable"),
    ])

    public static let kind = LayerKind(
        name: "captions",
        summary: "subtitles with the word being said highlighted, balanced lines on pills in the safe area",
        parameters: parameters
    ) { p, path, context in
        guard let url = p[Key.path] else { return nil }
        let transcript: Transcript
        do {
            transcript = try TranscriptParser.load(file: url.path, limits: context.limits)
        } catch {
            context.error("\(error)", at: p.node(Key.path), path: p.path(Key.path))
            return nil
        }
        for line in transcript.lines {
            if let problem = TextLimits.problem(text: line.text, limits: context.limits) {
                context.error(
                    "\(url.lastPathComponent), the cue at \(ResourceLimits.text(line.start)) s: \(problem)",
                    at: p.node(Key.path), path: p.path(Key.path))
                return nil
            }
        }
        func decode(_ table: ParameterTable, _ key: ParameterKey<JSONNode?>) -> DecodedParameters? {
            let before = context.diagnostics.count
            // Absent, the table's defaults: an empty object decodes to them.
            let written =
                p.node(key) ?? JSONNode(value: .object([]), location: SourceLocation(line: 1, column: 1))
            let decoded = table.decode(written, path: p.path(key), context: context)
            return context.diagnostics.count == before ? decoded : nil
        }
        guard let h = decode(highlightTable, Key.highlight), let b = decode(backgroundTable, Key.background)
        else { return nil }
        let frame = context.frameSize ?? (1920, 1080)
        let box = SIMD2(frame.width, frame.height)
        let written = p[Key.size].value(at: 0)
        let style = Style(
            font: FontDescriptor(
                family: p[Key.font], weight: FontDescriptor.weightNames[p[Key.weight]] ?? 600),
            size: written > 0 ? written : min(box.x, box.y) / 18,
            padding: b[TextLayer.BackgroundKey.padding].value(at: 0),
            safeArea: p[Key.safeArea].value(at: 0),
            placement: Placement(rawValue: p[Key.placement]) ?? .bottom,
            maxCharacters: p[Key.maxCharactersPerLine],
            balanced: p[Key.wrap] == TextLayout.Wrap.balanced.rawValue)
        let background = (
            color: b[TextLayer.BackgroundKey.color], padding: b[TextLayer.BackgroundKey.padding],
            cornerRadius: b[TextLayer.BackgroundKey.cornerRadius]
        )
        let fade = p[Key.fade].value(at: 0)
        let duration = context.timelineDuration ?? (transcript.lines.last.map { $0.end ?? $0.start } ?? 0)
        var cues: [Cue] = []
        do {
            let library = try FontLibrary.shared()
            for index in transcript.lines.indices {
                let line = transcript.lines[index]
                let end = transcript.end(ofLine: index, videoDuration: duration)
                // A cue that follows another within a fade (or precedes one) cuts to it: a dip
                // to nothing between two lines of one sentence reads as a flicker.
                let joinsPrevious =
                    index > 0
                    && line.start - transcript.end(ofLine: index - 1, videoDuration: duration) < fade
                let joinsNext =
                    index + 1 < transcript.lines.count && transcript.lines[index + 1].start - end < fade
                let ramp = min(fade, (end - line.start) / 3)
                let laid = try style.layout(line, end: end, in: box, library: library)
                cues.append(
                    Cue(
                        layout: laid.layout, origin: laid.origin, words: laid.words,
                        background: TextLayer.Background(
                            color: background.color, padding: background.padding,
                            cornerRadius: background.cornerRadius,
                            lines: laid.layout.lines.filter { $0.width > 0 }.map { l in
                                (
                                    l.x, l.width, l.baseline - laid.layout.ascender,
                                    laid.layout.ascender + laid.layout.descender
                                )
                            }),
                        start: line.start, end: end, fadeIn: joinsPrevious ? 0 : ramp,
                        fadeOut: joinsNext ? 0 : ramp))
            }
        } catch {
            context.error("\(error)", at: p.node(Key.font), path: p.path(Key.font))
            return nil
        }
        let margin = SaturatingConversion.int(style.size * 0.5, .up)
        for cue in cues {
            if let problem = TextLimits.problem(layout: cue.layout, margin: margin, limits: context.limits) {
                context.error(
                    "\(url.lastPathComponent), the cue at \(ResourceLimits.text(cue.start)) s: \(problem)",
                    at: p.node(Key.path), path: p.path(Key.path))
                return nil
            }
        }
        guard chargePictures(of: cues, margin: margin, to: context.memory, at: path) else { return nil }
        return CaptionsLayer(
            box: box, transcript: transcript, cues: cues, color: p[Key.color],
            highlight: Highlight(
                color: h[HighlightKey.color], background: h[HighlightKey.background],
                spoken: h[HighlightKey.spoken]),
            fade: fade, pictures: CuePictures(cues: cues, margin: margin))
    }

    /// Charges the word pictures held at once before any is drawn: those of the current cue,
    /// the one before it (fading out) and one more kept a little after it left (the three
    /// largest cues). A word's picture is cut to its ink, so a cue's words hold at most twice
    /// the picture of its whole text (neighbouring words' ink rectangles overlap a little).
    static func chargePictures(of cues: [Cue], margin: Int, to budget: MemoryBudget, at path: JSONPath)
        -> Bool
    {
        let areas = cues.map { cue in
            let (w, h) = TextLimits.pictureArea(layout: cue.layout, margin: margin)
            return w * h
        }.sorted(by: >)
        let held = areas.prefix(CuePictures.heldCues).reduce(0, +) * 2
        return budget.charge(
            .text, held * TextLimits.heldBytesPerPixel,
            briefly: (areas.first ?? 0) * TextLimits.drawingBytesPerPixel,
            "caption pictures of \(min(areas.count, CuePictures.heldCues)) cues", at: path)
    }

    public func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double> { box }

    /// The cue shown at `time`, if any.
    func cue(at time: Double) -> Int? {
        transcript.current(at: time)
    }

    /// The boxes of a cue's line pills in the layer's box, padding included (tests).
    func lineBoxes(ofCue index: Int) -> [(min: SIMD2<Double>, max: SIMD2<Double>)] {
        let cue = cues[index]
        guard let background = cue.background else { return [] }
        let pad = background.padding.value(at: cue.start)
        return background.lines.map { line in
            let low = cue.origin + SIMD2(line.x - pad.x, line.top - pad.y)
            return (low, low + SIMD2(line.width + 2 * pad.x, line.height + 2 * pad.y))
        }
    }

    public func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer {
        let use = pictures.startPreparing()
        guard let index = cue(at: time) else {
            return PreparedGroup(children: LayerStack(items: []), clip: nil)
        }
        let cue = cues[index]
        let opacity = cue.opacity(at: time)
        guard opacity > 0 else { return PreparedGroup(children: LayerStack(items: []), clip: nil) }
        let place = transform.concatenating(.translation(cue.origin.x, cue.origin.y))
        var items = cue.background?.items(at: time, canvas: canvas, transform: place) ?? []
        let current = cue.word(at: time)
        if let current,
            let pill = wordPill(cue.words[current], cue: cue, at: time, canvas: canvas, transform: place)
        {
            items.append(pill)
        }
        let plain = TextLayer.tint(color.value(at: time))
        let marked = TextLayer.tint(highlight.color.value(at: time))
        let words = pictures.words(of: index, use)
        for (k, picture) in words.enumerated() {
            let lit = k == current || (highlight.spoken && current.map { k < $0 } == true)
            items += TextLayer.items(
                picture, tint: lit ? marked : plain, opacity: 1, blur: 0, transform: place, canvas: canvas)
        }
        let group = PreparedGroup(children: LayerStack(items: items), clip: nil)
        guard opacity < 1 else { return group }
        // Faded as one picture: the pills must not show through the half-faded words.
        return PreparedGroup(
            children: LayerStack(items: [PreparedItem(layer: group, opacity: Float(opacity), colors: nil)]),
            clip: nil)
    }

    /// The highlight's pill behind the word being said: its ink advance grown by half the
    /// line pill's padding, so it stays inside the line's pill.
    func wordPill(_ word: Word, cue: Cue, at time: Double, canvas: Canvas, transform: Affine2D)
        -> PreparedItem?
    {
        let c = highlight.background.value(at: time)
        let alpha = min(max(c.a, 0), 1)
        guard alpha > 0 else { return nil }
        let pad = (cue.background?.padding.value(at: time) ?? Point2(x: 0, y: 0))
        let grow = SIMD2(pad.x, pad.y) / 2
        let radius = (cue.background?.cornerRadius.value(at: time) ?? 0) / 2
        let fill = SIMD4<Float>(
            Float(min(max(c.r, 0), 1)), Float(min(max(c.g, 0), 1)), Float(min(max(c.b, 0), 1)), 1)
        return PreparedItem(
            layer: PreparedShape(
                painter: RoundedRectPainter(
                    size: SIMD2(word.box.width, word.box.height) + 2 * grow, cornerRadius: radius,
                    frameFromLocal: transform.concatenating(
                        .translation(word.box.x - grow.x, word.box.top - grow.y)),
                    fill: fill, stroke: SIMD4(), strokeWidth: 0, frameWidth: canvas.width,
                    frameHeight: canvas.height)),
            opacity: Float(alpha), colors: nil)
    }
}

extension CaptionsLayer {
    /// What a cue's layout depends on besides its text.
    struct Style {
        let font: FontDescriptor
        let size: Double
        let padding: Point2
        let safeArea: Double
        let placement: Placement
        let maxCharacters: Int
        let balanced: Bool

        /// Lays a cue out: its text on one line (line breaks written in the file are spaces:
        /// the lines are made again for the frame), broken by `CaptionBreaking`, centred, its
        /// line pills a tenth of the size apart, placed in the safe area.
        func layout(_ line: TranscriptLine, end: Double, in box: SIMD2<Double>, library: FontLibrary)
            throws(TextError) -> (layout: TextLayout, origin: SIMD2<Double>, words: [Word])
        {
            // Same byte length, so offsets into the file's text hold in this one.
            let flat = String(line.text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
            let single = try TextLayout(text: flat, font: font, size: size, library: library)
            let safe = box * (1 - 2 * safeArea)
            let starts = CaptionBreaking.lineStarts(
                of: single, maxCharacters: maxCharacters, maxWidth: safe.x - 2 * padding.x, balanced: balanced
            )
            var broken = ""
            var previous = 0
            let bytes = Array(flat.utf8)
            for start in starts + [bytes.count] {
                broken += String(decoding: bytes[previous..<start], as: UTF8.self)
                if start < bytes.count { broken += "\n" }
                previous = start
            }
            let height = single.ascender + single.descender
            let layout = try TextLayout(
                text: broken, font: font, size: size, lineHeight: (height + 2 * padding.y + size / 10) / size,
                alignment: .center, library: library)
            let x = ((box.x - layout.size.x) / 2).rounded()
            let y: Double
            switch placement {
            case .bottom: y = box.y * (1 - safeArea) - padding.y - layout.size.y
            case .top: y = box.y * safeArea + padding.y
            case .center: y = (box.y - layout.size.y) / 2
            }
            let words = Self.words(of: line, flat: flat, lineStarts: starts, layout: layout, end: end)
            return (layout, SIMD2(x, y.rounded()), words)
        }

        /// The cue's words, each with its glyphs in `layout` (the flat text with a line break
        /// inserted at each line start) and when it is said: spread by characters between the
        /// times the file gives (the cue's start, its word times, its end).
        static func words(
            of line: TranscriptLine, flat: String, lineStarts: [Int], layout: TextLayout, end: Double
        ) -> [Word] {
            let bytes = Array(flat.utf8)
            let breaks = LineBreaks.opportunities(in: flat)
            var bounds = [0]
            for (offset, opportunity) in breaks.enumerated()
            where opportunity != .none && offset + 1 < bytes.count {
                bounds.append(offset + 1)
            }
            bounds.append(bytes.count)
            // Each unit's visible range (its first to last byte that is not a space).
            var spans: [(range: Range<Int>, characters: Int)] = []
            for (from, to) in zip(bounds, bounds.dropFirst()) {
                let piece = String(decoding: bytes[from..<to], as: UTF8.self)
                guard let first = piece.firstIndex(where: { !$0.isWhitespace }),
                    let last = piece.lastIndex(where: { !$0.isWhitespace })
                else { continue }
                let lead = piece.utf8.distance(from: piece.startIndex, to: first)
                let ink = piece[first...last]
                spans.append((from + lead..<from + lead + ink.utf8.count, ink.count))
            }
            let times = startTimes(
                of: spans.map { ($0.range.lowerBound, $0.characters) }, line: line, end: end)
            // A byte of the flat text sits after as many inserted line breaks as line starts
            // at or before it.
            func moved(_ offset: Int) -> Int {
                offset + (lineStarts.firstIndex { $0 > offset } ?? lineStarts.count)
            }
            var glyphsByWord = [[TextLayout.Glyph]](repeating: [], count: spans.count)
            var boxes = [(x: Double, width: Double, top: Double, height: Double)?](
                repeating: nil, count: spans.count)
            let ranges = spans.map {
                moved($0.range.lowerBound)..<moved($0.range.lowerBound) + $0.range.count
            }
            for laid in layout.lines {
                let glyphs = laid.runs.flatMap(\.glyphs)
                for (k, glyph) in glyphs.enumerated() {
                    guard let word = Self.index(of: glyph.cluster, in: ranges) else { continue }
                    glyphsByWord[word].append(glyph)
                    let next = k + 1 < glyphs.count ? glyphs[k + 1].position.x : laid.x + laid.width
                    let low = min(glyph.position.x, next), high = max(glyph.position.x, next)
                    let top = laid.baseline - layout.ascender, height = layout.ascender + layout.descender
                    if let b = boxes[word] {
                        let left = min(b.x, low)
                        boxes[word] = (left, max(b.x + b.width, high) - left, top, height)
                    } else {
                        boxes[word] = (low, high - low, top, height)
                    }
                }
            }
            return spans.indices.compactMap { k in
                boxes[k].map { Word(glyphs: glyphsByWord[k], start: times[k], box: $0) }
            }
        }

        /// The range holding `offset`, found by bisection: the ranges are sorted and apart, and a
        /// long cue has thousands of glyphs and words.
        static func index(of offset: Int, in ranges: [Range<Int>]) -> Int? {
            var (low, high) = (0, ranges.count)
            while low < high {
                let middle = (low + high) / 2
                if ranges[middle].upperBound <= offset { low = middle + 1 } else { high = middle }
            }
            return low < ranges.count && ranges[low].contains(offset) ? low : nil
        }

        /// When each word (its first byte and its characters) is said: the file's times (the
        /// cue's start, then its word times) each start a stretch that runs to the next time
        /// (the last to the cue's end); the words starting in a stretch share it by their
        /// characters, so a word lasts as long as it is long, and a stretch of one word starts
        /// it exactly at its time.
        static func startTimes(of words: [(offset: Int, characters: Int)], line: TranscriptLine, end: Double)
            -> [Double]
        {
            let marks = [TranscriptLine.WordTime(offset: 0, start: line.start)] + line.wordTimes
            // Words and marks are both in text order: one pass gives each word its stretch.
            var stretch = [Int](repeating: 0, count: words.count)
            var characters = [Int](repeating: 0, count: marks.count)
            var m = 0
            for k in words.indices {
                while m + 1 < marks.count, marks[m + 1].offset <= words[k].offset { m += 1 }
                stretch[k] = m
                characters[m] += words[k].characters
            }
            var times = [Double](repeating: line.start, count: words.count)
            var before = [Int](repeating: 0, count: marks.count)
            for k in words.indices {
                let m = stretch[k], mark = marks[m]
                let stretchEnd = m + 1 < marks.count ? marks[m + 1].start : max(end, mark.start)
                times[k] =
                    mark.start + (stretchEnd - mark.start) * Double(before[m]) / Double(max(characters[m], 1))
                before[m] += words[k].characters
            }
            return times
        }
    }
}

/// Each cue's word pictures, drawn when the cue is first shown and let go `retention` prepares
/// after it was last used, so a long subtitle file holds the pictures of the cue on screen and
/// of its neighbours only. A cue shown again (a preview jumping back) is drawn again,
/// identically.
final class CuePictures: @unchecked Sendable {
    private let cues: [CaptionsLayer.Cue]
    private let margin: Int
    private let state = Mutex(State())

    /// Enough that renderers sharing the layer at different times (segments, previews) do not
    /// take each other's pictures away.
    static let retention = 15
    /// The cues whose pictures the memory estimate counts as held at once.
    static let heldCues = 3

    private struct Held {
        let pictures: [TextImage]
        var used: Int
    }
    private struct State {
        var held: [Int: Held] = [:]
        var prepares = 0
    }

    struct Use {
        fileprivate let prepare: Int
    }

    init(cues: [CaptionsLayer.Cue], margin: Int) {
        self.cues = cues
        self.margin = margin
    }

    func startPreparing() -> Use {
        state.withLock { state in
            state.prepares += 1
            let now = state.prepares
            if state.held.values.contains(where: { now - $0.used > Self.retention }) {
                state.held = state.held.filter { now - $0.value.used <= Self.retention }
            }
            return Use(prepare: now)
        }
    }

    /// How many cues' pictures are held (tests).
    var heldCount: Int { state.withLock { $0.held.count } }

    func words(of index: Int, _ use: Use) -> [TextImage] {
        let known = state.withLock { state -> [TextImage]? in
            guard let held = state.held[index] else { return nil }
            state.held[index]?.used = max(held.used, use.prepare)
            return held.pictures
        }
        if let known { return known }
        // Drawn outside the lock; two frames racing draw the same pictures twice, identically.
        let cue = cues[index]
        let made = cue.words.map { TextImage(cue.layout, margin: margin, glyphs: $0.glyphs) }
        state.withLock { state in
            let used = max(state.held[index]?.used ?? 0, use.prepare)
            state.held[index] = Held(pictures: state.held[index]?.pictures ?? made, used: used)
        }
        return made
    }
}
