import Foundation
import KilnModel
import KilnRaster
import KilnText
import Synchronization

/// The seed's time-synced transcript: a vertical list of the transcript's lines (wrapped within
/// the width, balanced by default, `spacing` apart). The current line (the last whose start has
/// passed) is bold and clear; the others fade back, blurred. When the current line changes, the
/// list springs to keep it centred, and a small `m:ss` timestamp hangs under it, leading edges
/// aligned, its top on the line's bottom, fading with the line, never moving the layout: the
/// gap under every line is made tall enough to hold it.
public struct TranscriptLayer: LayerRendering {
    let transcript: Transcript
    let box: SIMD2<Double>
    let otherOpacity: Double
    let color: Animated<RGBA>
    let scroll: Spring
    let timestampOpacity: Double
    /// Each line's top in the list and its height (the taller of its two weights).
    let tops: [Double]
    let heights: [Double]
    let pictures: LinePictures

    static let fade = 0.25

    enum Key {
        static let path = ParameterKey<URL?>("path")
        static let width = ParameterKey<Animated<Double>>("width")
        static let wrap = ParameterKey<String>("wrap")
        static let height = ParameterKey<Animated<Double>>("height")
        static let font = ParameterKey<String>("font")
        static let fontSize = ParameterKey<Animated<Double>>("fontSize")
        static let spacing = ParameterKey<Animated<Double>>("spacing")
        static let color = ParameterKey<Animated<RGBA>>("color")
        static let otherOpacity = ParameterKey<Animated<Double>>("otherOpacity")
        static let otherBlur = ParameterKey<Animated<Double>>("otherBlur")
        static let scrollResponse = ParameterKey<Animated<Double>>("scrollResponse")
        static let scrollDamping = ParameterKey<Animated<Double>>("scrollDamping")
        static let timestampSize = ParameterKey<Animated<Double>>("timestampSize")
        static let timestampOpacity = ParameterKey<Animated<Double>>("timestampOpacity")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.path, .assetPath,
            help:
                "transcript: JSON ({\"segments\": [{\"start\", \"text\"}]}), SubRip (.srt) or WebVTT (.vtt); missing exits 66, malformed 65 naming its line"
        ),
        Parameter(
            Key.width, .constantNumber(16...8192), default: .number(1100),
            help: "the list's width; lines wrap within it"),
        Parameter(
            Key.wrap, .choice(TextLayout.Wrap.allCases.map(\.rawValue)), default: .string("balanced"),
            help:
                "how a line wraps: balanced (as many lines as greedy, as even as they go: no lone last word) or greedy (each line as full as it goes)"
        ),
        Parameter(
            Key.height, .constantNumber(16...8192), default: .number(1080),
            help: "the viewport's height (the layer's box is width × height)"),
        Parameter(
            Key.font, .string, default: .string("Noto Sans"),
            help: "font family; the current line uses its bold"),
        Parameter(Key.fontSize, .constantNumber(4...400), default: .number(54), help: "text size in pixels"),
        Parameter(
            Key.spacing, .constantNumber(0...1000), default: .number(12),
            help: "pixels between lines; at least the timestamp's height, which hangs in the gap"),
        Parameter(
            Key.color, .color, default: .color(RGBA(r: 1, g: 1, b: 1, a: 1)), help: "text colour"),
        Parameter(
            Key.otherOpacity, .constantNumber(0...1), default: .number(0.35),
            help: "opacity of the lines that are not current"),
        Parameter(
            Key.otherBlur, .constantNumber(0...50), default: .number(2),
            help: "blur radius of the lines that are not current"),
        Parameter(
            Key.scrollResponse, .constantNumber(0.01...10), default: .number(0.5),
            help: "the scroll spring's response, seconds"),
        Parameter(
            Key.scrollDamping, .constantNumber(0.05...2), default: .number(0.85),
            help: "the scroll spring's damping fraction"),
        Parameter(
            Key.timestampSize, .constantNumber(0...200), default: .number(22),
            help: "the m:ss timestamp's size; 0 = none"),
        Parameter(
            Key.timestampOpacity, .constantNumber(0...1), default: .number(0.7),
            help: "the timestamp's opacity"
        ),
    ])

    public static let kind = LayerKind(
        name: "transcript", summary: "a time-synced transcript that scrolls to its current line",
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
                    "\(url.lastPathComponent), the line at \(ResourceLimits.text(line.start)) s: \(problem)",
                    at: p.node(Key.path), path: p.path(Key.path))
                return nil
            }
        }
        let width = p[Key.width].value(at: 0), size = p[Key.fontSize].value(at: 0)
        let family = p[Key.font], wrap = TextLayout.Wrap(rawValue: p[Key.wrap]) ?? .balanced
        do {
            let library = try FontLibrary.shared()
            func layout(_ text: String, weight: Int, size: Double, wrap: TextLayout.Wrap?) throws(TextError)
                -> TextLayout
            {
                let made = try TextLayout(
                    text: text, font: FontDescriptor(family: family, weight: weight), size: size,
                    maxWidth: wrap == nil ? nil : width, wrap: wrap ?? .greedy, library: library)
                context.recordFonts(of: made)
                return made
            }
            var regular: [TextLayout] = [], bold: [TextLayout] = [], stamps: [TextLayout?] = []
            let stampSize = p[Key.timestampSize].value(at: 0)
            for line in transcript.lines {
                let current = try layout(line.text, weight: 700, size: size, wrap: wrap)
                bold.append(current)
                // The regular weight breaks where the bold one does (it is the narrower: it
                // fits the bold's lines) and each of its glyphs is centred on the bold glyph's
                // place, so that the cross-fade between them thickens one text's strokes in
                // place: at its own advances the regular line ends tens of pixels short and
                // both weights would show, offset, through the fade.
                let narrow = try layout(Self.lines(of: current), weight: 400, size: size, wrap: .greedy)
                regular.append(narrow.centred(onCellsOf: current))
                stamps.append(
                    stampSize > 0
                        ? try layout(Self.stamp(line.start), weight: 400, size: stampSize, wrap: nil) : nil)
            }
            // The timestamp hangs in the gap under its line: a gap at least its height keeps it
            // off the next line.
            let gap = max(p[Key.spacing].value(at: 0), stamps.compactMap { $0?.size.y }.max() ?? 0)
            var tops: [Double] = [], heights: [Double] = [], y = 0.0
            for (a, b) in zip(regular, bold) {
                let h = max(a.size.y, b.size.y)
                // On whole pixels, so that the settled list (whose offset is whole too) puts
                // every line picture on whole pixels: sharp, and composited without taps.
                tops.append(y.rounded())
                heights.append(h)
                y += h + gap
            }
            let margin = SaturatingConversion.int(size * 0.5, .up)
            guard
                Self.chargePictures(
                    regular: regular, bold: bold, margin: margin, gap: gap,
                    viewport: p[Key.height].value(at: 0), to: context.memory, at: path)
            else { return nil }
            return TranscriptLayer(
                transcript: transcript,
                box: SIMD2(width, p[Key.height].value(at: 0)),
                otherOpacity: p[Key.otherOpacity].value(at: 0),
                color: p[Key.color],
                scroll: Spring(
                    response: p[Key.scrollResponse].value(at: 0),
                    dampingFraction: p[Key.scrollDamping].value(at: 0)),
                timestampOpacity: p[Key.timestampOpacity].value(at: 0), tops: tops, heights: heights,
                pictures: LinePictures(
                    regular: regular, bold: bold, stamps: stamps, margin: margin,
                    fadedBlur: p[Key.otherBlur].value(at: 0)))
        } catch {
            context.error("\(error)", at: p.node(Key.font), path: p.path(Key.font))
            return nil
        }
    }

    /// Charges the line pictures held at once, before any is drawn: a faded and a bold picture
    /// (the bold one with its timestamp) of as many of the largest lines as the viewport shows
    /// at once, plus the lines that left it within `LinePictures.retention` prepares (one
    /// viewport more), and the drawing and blurring of one.
    static func chargePictures(
        regular: [TextLayout], bold: [TextLayout], margin: Int, gap: Double, viewport: Double,
        to budget: MemoryBudget, at path: JSONPath
    ) -> Bool {
        let areas = zip(regular, bold).map { a, b in
            let (w1, h1) = TextLimits.pictureArea(layout: a, margin: margin)
            let (w2, h2) = TextLimits.pictureArea(layout: b, margin: margin)
            return w1 * h1 + w2 * h2
        }.sorted(by: >)
        let shortest = zip(regular, bold).map { max($0.size.y, $1.size.y) + gap }.min() ?? 1
        let shown = min(areas.count, SaturatingConversion.int(2 * viewport / max(shortest, 1), .up) + 4)
        let held = areas.prefix(shown).reduce(0, +)
        // A blurred picture is made from Float copies of it.
        let drawing = (areas.first ?? 0) * (TextLimits.drawingBytesPerPixel + 16)
        return budget.charge(
            .transcript, held * TextLimits.heldBytesPerPixel, briefly: drawing,
            "transcript pictures of \(shown) lines", at: path)
    }

    /// Whether a line's box lands on the frame, with room around it for its margins and
    /// timestamp (one line height) and its blur (`margin`).
    static func reachesFrame(
        _ place: Affine2D, width: Double, height: Double, margin: Double, canvas: Canvas
    ) -> Bool {
        let m = height + margin
        let corners = [
            SIMD2(-m, -m), SIMD2(width + m, -m), SIMD2(-m, height + m), SIMD2(width + m, height + m),
        ].map { place.apply($0) }
        let low = corners.dropFirst().reduce(corners[0]) { pointwiseMin($0, $1) }
        let high = corners.dropFirst().reduce(corners[0]) { pointwiseMax($0, $1) }
        return high.x > 0 && high.y > 0 && low.x < Double(canvas.width) && low.y < Double(canvas.height)
    }

    /// The text of a layout's lines, each ending in a line break instead of its trailing spaces.
    static func lines(of layout: TextLayout) -> String {
        let utf8 = Array(layout.text.utf8)
        return layout.lines.map { line in
            var text = Substring(String(decoding: utf8[line.range], as: UTF8.self))
            while let last = text.last, last.isWhitespace { text.removeLast() }
            return String(text)
        }.joined(separator: "\n")
    }

    /// `m:ss` (or `h:mm:ss` from an hour on) of a line's start.
    static func stamp(_ seconds: Double) -> String {
        let total = SaturatingConversion.int(seconds, in: 0...SaturatingConversion.limit)
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let two = { (v: Int) in v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    public func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double> { box }

    /// Which line is current at a time, which one was just before it, and since when: what the
    /// scroll and the cross-fade follow, found once per frame.
    struct Moment {
        let current: Int?
        let previous: Int?
        let time: Double
        /// The current line's start (the last change).
        let change: Double
    }

    func moment(at time: Double) -> Moment {
        guard let current = transcript.current(at: time) else {
            return Moment(current: nil, previous: nil, time: time, change: time)
        }
        let change = transcript.lines[current].start
        return Moment(
            current: current, previous: transcript.current(at: change.nextDown), time: time, change: change)
    }

    /// The list's scroll offset: springing from the previous current line's centring to the
    /// current one's since the current line started.
    func scrollOffset(_ moment: Moment) -> Double {
        func target(_ index: Int?) -> Double {
            guard let index, tops.indices.contains(index) else {
                return tops.isEmpty ? 0 : heights[0] / 2 - box.y / 2
            }
            // Whole pixels, as the tops are.
            return (tops[index] + heights[index] / 2 - box.y / 2).rounded()
        }
        guard let current = moment.current else { return target(nil) }
        let from = target(moment.previous), to = target(current)
        return from + (to - from) * scroll.progress(at: moment.time - moment.change)
    }

    /// How current a line is (1 current, 0 not), cross-faded over `fade` seconds.
    func currentness(of index: Int, _ moment: Moment) -> Double {
        let faded = min(1, (moment.time - moment.change) / Self.fade)
        if index == moment.current { return faded }
        if index == moment.previous, moment.current != nil { return 1 - faded }
        return 0
    }

    /// The opacities a line is drawn at: its faded (regular, blurred) picture and its bold one.
    /// Through a cross-fade both are drawn, so both must put each letter in the same place.
    struct Weights: Equatable {
        let faded: Double
        let bold: Double
    }

    func weights(of index: Int, _ moment: Moment) -> Weights {
        let k = currentness(of: index, moment)
        return Weights(faded: k < 1 ? (1 - k) * otherOpacity : 0, bold: k)
    }

    /// How close (pixels) a line must be to whole pixels to be put on them: the spring's last
    /// creep is far below what a frame can show, and a shift of 1/64 pixel moves an edge by
    /// at most 4 of 255 code values; it is what lets a settled list composite without taps.
    static let snap = 1.0 / 64

    /// `place` moved onto whole pixels when it is a translation within `snap` of them.
    static func snapped(_ place: Affine2D) -> Affine2D? {
        guard place.a == 1, place.b == 0, place.c == 0, place.d == 1 else { return nil }
        let x = place.tx.rounded(), y = place.ty.rounded()
        guard x != place.tx || y != place.ty else { return nil }
        guard abs(x - place.tx) <= snap, abs(y - place.ty) <= snap else { return nil }
        return .translation(x, y)
    }

    public func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer {
        let tint = TextLayer.tint(color.value(at: time))
        let now = moment(at: time)
        let offset = scrollOffset(now)
        let use = pictures.startPreparing()
        var items: [PreparedItem] = []
        // Only the lines in or near the viewport.
        for index in tops.indices {
            let y = tops[index] - offset
            guard y + heights[index] > -heights[index], y < box.y + heights[index] else { continue }
            var place = transform.concatenating(.translation(0, y))
            // Nor a line the frame does not show (a viewport far taller than the frame): its
            // pictures are never drawn.
            guard
                Self.reachesFrame(
                    place, width: box.x, height: heights[index], margin: 3 * pictures.fadedBlur,
                    canvas: canvas)
            else { continue }
            // Cut to the viewport, as a scroll view is: the list's box, in the line's space.
            var viewport = (min: SIMD2(0, -y), max: SIMD2(box.x, box.y - y))
            if let whole = Self.snapped(place) {
                // The line moves; the viewport stays where it is in the frame.
                let shift = SIMD2(whole.tx - place.tx, whole.ty - place.ty)
                viewport = (viewport.min - shift, viewport.max - shift)
                place = whole
            }
            let weights = weights(of: index, now), k = weights.bold
            if weights.faded > 0 {
                items += TextLayer.items(
                    pictures.faded(index, use), tint: tint, opacity: Float(weights.faded), blur: 0,
                    transform: place, canvas: canvas, viewport: viewport)
            } else if otherOpacity > 0 {
                // The current line shows only its bold picture, but fades back to this one when
                // the next line starts: kept while the line is in view, not drawn again.
                pictures.keepFaded(index, use)
            }
            if k > 0 {
                items += TextLayer.items(
                    pictures.bold(index, use), tint: tint, opacity: Float(k), blur: 0, transform: place,
                    canvas: canvas, viewport: viewport)
                if let stamp = pictures.stamp(index, use), timestampOpacity > 0 {
                    // Hangs under the line: leading edges aligned, its top on the line's bottom
                    // (rounded, as the list's layout is).
                    let below = heights[index].rounded()
                    items += TextLayer.items(
                        stamp, tint: tint, opacity: Float(k * timestampOpacity), blur: 0,
                        transform: place.concatenating(.translation(0, below)), canvas: canvas,
                        viewport: (viewport.min - SIMD2(0, below), viewport.max - SIMD2(0, below)))
                }
            }
        }
        return PreparedGroup(children: LayerStack(items: items), clip: nil)
    }
}

/// Each line's pictures, drawn when first needed and kept while they are in use: a long
/// transcript holds only the pictures of the lines in or near the viewport (their faded
/// pictures) and of the current and previous lines (bold, with their timestamps), whatever its
/// length or the video's duration. A picture no `prepare` has used for `retention` prepares is
/// let go; one needed again (a preview that jumps back) is drawn again, identically.
///
/// The faded picture is drawn blurred, once: compositing it costs what a sharp picture costs,
/// and the cross-fade between a line's bold and faded pictures is the same blend of the same
/// two pictures as when the faded one was blurred every frame.
final class LinePictures: @unchecked Sendable {
    let regularLayouts: [TextLayout]
    let boldLayouts: [TextLayout]
    private let stampLayouts: [TextLayout?]
    private let margin: Int
    /// The blur of the lines that are not current: constant, so they are drawn blurred once.
    let fadedBlur: Double
    private let state = Mutex(State())

    /// How many prepares a picture outlives its last use: enough that renderers sharing the
    /// layer at different times (segments, previews) do not take each other's pictures away,
    /// and that a line leaving the viewport is let go within a fraction of a second of video.
    static let retention = 15

    private enum Weight: Hashable { case faded, bold, stamp }
    private struct Key: Hashable {
        let index: Int
        let weight: Weight
    }
    private struct Held {
        let picture: TextImage
        /// The prepare that last used it.
        var used: Int
    }
    private struct State {
        var held: [Key: Held] = [:]
        /// Prepares started so far.
        var prepares = 0
    }

    /// One prepare's stamp, handed to every picture it asks for.
    struct Use {
        fileprivate let prepare: Int
    }

    init(regular: [TextLayout], bold: [TextLayout], stamps: [TextLayout?], margin: Int, fadedBlur: Double) {
        (regularLayouts, boldLayouts, stampLayouts, self.margin) = (regular, bold, stamps, margin)
        self.fadedBlur = fadedBlur
    }

    /// Starts a prepare: lets go of the pictures no prepare has used for `retention` prepares.
    func startPreparing() -> Use {
        state.withLock { state in
            state.prepares += 1
            let now = state.prepares
            // Checked first, so that a frame with nothing to let go allocates nothing.
            if state.held.values.contains(where: { now - $0.used > Self.retention }) {
                state.held = state.held.filter { now - $0.value.used <= Self.retention }
            }
            return Use(prepare: now)
        }
    }

    /// How many pictures are held (tests).
    var heldCount: Int { state.withLock { $0.held.count } }

    /// The line in the regular weight, blurred by `fadedBlur`.
    func faded(_ index: Int, _ use: Use) -> TextImage {
        picture(Key(index: index, weight: .faded), regularLayouts[index], use, blur: fadedBlur)
    }
    func bold(_ index: Int, _ use: Use) -> TextImage {
        picture(Key(index: index, weight: .bold), boldLayouts[index], use)
    }
    func stamp(_ index: Int, _ use: Use) -> TextImage? {
        stampLayouts[index].map { picture(Key(index: index, weight: .stamp), $0, use) }
    }

    /// Marks the line's faded picture, if held, as used without drawing it.
    func keepFaded(_ index: Int, _ use: Use) {
        state.withLock { state in
            let key = Key(index: index, weight: .faded)
            if let held = state.held[key] { state.held[key]?.used = max(held.used, use.prepare) }
        }
    }

    private func picture(_ key: Key, _ layout: TextLayout, _ use: Use, blur: Double = 0) -> TextImage {
        let known = state.withLock { state -> TextImage? in
            guard let held = state.held[key] else { return nil }
            state.held[key]?.used = max(held.used, use.prepare)
            return held.picture
        }
        if let known { return known }
        // Drawn outside the lock; two frames racing draw the same picture twice, identically.
        let made = TextImage(layout, margin: margin).blurred(radius: blur)
        state.withLock { state in
            let used = max(state.held[key]?.used ?? 0, use.prepare)
            state.held[key] = Held(picture: state.held[key]?.picture ?? made, used: used)
        }
        return made
    }
}
