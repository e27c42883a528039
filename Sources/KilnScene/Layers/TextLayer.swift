import Foundation
import KilnModel
import KilnRaster
import KilnText

/// Text: shaped with HarfBuzz, in any script (fallback fonts fill in what the named font lacks,
/// colour emoji included), wrapped within `width`, aligned, and drawn once when the job loads.
/// Its box is the layout's (width × lines' height), so transforms, clips and effects place it
/// like any layer.
public struct TextLayer: LayerRendering {
    public let image: TextImage
    public let color: Animated<RGBA>
    public let reveal: Reveal?
    /// The first line's baseline from the top of the box, which baseline-aligned stacks line up.
    public let baseline: Double
    public let stroke: Stroke?
    public let background: Background?

    /// An outline outside the glyphs, drawn beneath them: each glyph grown by `width` pixels
    /// (FreeType's stroker on its outline), tinted. Made when the job loads, as the text is.
    public struct Stroke: Sendable {
        public let color: Animated<RGBA>
        public let width: Double
        /// The grown glyphs: the whole text's, and per reveal element (and the rest), as the text.
        public let image: TextImage
        public let elements: [TextImage]
        public let rest: TextImage?
    }

    /// A rounded rectangle behind each line that fits the line's ink advance, grown by the
    /// padding (a caption pill): the lines' rectangles are drawn opaque and faded together, so
    /// where padded lines overlap the colour does not double.
    public struct Background: Sendable {
        public let color: Animated<RGBA>
        public let padding: Animated<Point2>
        public let cornerRadius: Animated<Double>
        /// Each non-empty line's box: left, width, top and height in the text's pixels.
        public let lines: [(x: Double, width: Double, top: Double, height: Double)]
    }

    /// The seed's text transition: lines or glyphs appear one after another, each fading in
    /// (a quick ease-in opacity ramp), going from a blur of a sixteenth of its height to sharp,
    /// and springing down into place from one descender above it.
    public struct Reveal: Sendable {
        public enum Unit: String, Sendable, CaseIterable {
            case line, glyph
        }

        /// The glyphs of each element and of the rest, which a stroke draws grown.
        let groups: [[TextLayout.Glyph]]
        let restGlyphs: [TextLayout.Glyph]?
        public let at: Double
        public let timing: RevealTiming
        /// Each element's picture, in reading order.
        public let elements: [TextImage]
        /// With emphasis ranges: the text outside them, which fades in over `restFade` seconds
        /// while the emphasized glyphs reveal one by one.
        public let rest: TextImage?
        static let restFade = 0.2
        /// Blur at the start of an element's animation, and the height it springs down from.
        public let blur: Double
        public let drop: Double
        let spring: Spring

        /// Opacity, blur radius and vertical offset of `element` at `time`.
        func state(of element: Int, at time: Double) -> (opacity: Double, blur: Double, offset: Double) {
            let elapsed = time - at
            let t = timing.time(of: element, at: elapsed)
            let progress = timing.progress(of: element, at: elapsed)
            let easeIn = Easing.easeIn
            let opacity = easeIn(min(1.4 * progress, 1))
            let blur = self.blur * easeIn(1 - progress)
            let offset = -drop * (1 - spring.progress(at: t))
            return (elapsed < 0 ? 0 : opacity, blur, offset)
        }
    }

    enum Key {
        static let text = ParameterKey<String>("text")
        static let font = ParameterKey<String>("font")
        static let size = ParameterKey<Animated<Double>>("size")
        static let weight = ParameterKey<String>("weight")
        static let italic = ParameterKey<Bool>("italic")
        static let color = ParameterKey<Animated<RGBA>>("color")
        static let alignment = ParameterKey<String>("alignment")
        static let width = ParameterKey<Animated<Double>>("width")
        static let wrap = ParameterKey<String>("wrap")
        static let lineHeight = ParameterKey<Animated<Double>>("lineHeight")
        static let emphasis = ParameterKey<JSONNode?>("emphasis")
        static let stroke = ParameterKey<JSONNode?>("stroke")
        static let background = ParameterKey<JSONNode?>("background")
        static let reveal = ParameterKey<JSONNode?>("reveal")
    }

    public static let parameters = ParameterTable([
        Parameter(Key.text, .string, help: "the text; \\n starts a new line"),
        Parameter(
            Key.font, .string, default: .string("Noto Sans"),
            help:
                "font family, looked up with fontconfig; one that is not installed is an error naming it (exit 65)"
        ),
        Parameter(Key.size, .constantNumber(1...1000), default: .number(48), help: "font size in pixels"),
        Parameter(
            Key.weight, .choice(FontDescriptor.weightNames.sorted { $0.value < $1.value }.map(\.key)),
            default: .string("regular"),
            help:
                "thin 100, extraLight 200, light 300, regular 400, medium 500, semibold 600, bold 700, extraBold 800, black 900"
        ),
        Parameter(Key.italic, .boolean, default: .boolean(false), help: "the italic (or oblique) style"),
        Parameter(
            Key.color, .color, default: .color(RGBA(r: 1, g: 1, b: 1, a: 1)),
            help: "text colour (emoji keep theirs)"),
        Parameter(
            Key.alignment, .choice(TextLayout.Alignment.allCases.map(\.rawValue)),
            default: .string("leading"),
            help: "leading, center or trailing within the width (or the widest line)"),
        Parameter(
            Key.width, .constantNumber(0...16_384), default: .number(0),
            help: "wrap lines within this many pixels; 0 = break only at \\n"),
        Parameter(
            Key.wrap, .choice(TextLayout.Wrap.allCases.map(\.rawValue)), default: .string("greedy"),
            help:
                "how lines break within the width: greedy (each line as full as it goes) or balanced (as many lines, as even as they go: no lone last word, as CSS text-wrap: balance)"
        ),
        Parameter(
            Key.lineHeight, .constantNumber(0...10), default: .number(0),
            help: "baseline-to-baseline distance as a multiple of the size; 0 = the font's own"),
        Parameter(
            Key.emphasis,
            .structured(
                "array of [from, to] character ranges",
                schema: .array(
                    of: .array(of: ValueSchema.integer(0...Int.max), count: 2...2), count: 1...Int.max)),
            default: .string("none"),
            help:
                "with a reveal: these characters (0-based, to excluded) reveal glyph by glyph, the rest fades in over 0.2 s"
        ),
        Parameter(
            Key.stroke,
            .structured("{\"color\", \"width\"}", schema: ValueSchema.object(strokeTable)),
            default: .string("none"),
            help:
                "an outline outside the glyphs, drawn beneath them (as CSS paint-order: stroke); colour emoji have none"
        ),
        Parameter(
            Key.background,
            .structured(
                "{\"color\", \"padding\", \"cornerRadius\"}", schema: ValueSchema.object(backgroundTable)),
            default: .string("none"),
            help: "a rounded rectangle behind each line, fitting the line's width (a caption pill)"
        ),
        Parameter(
            Key.reveal,
            .structured(
                "{\"by\": line|glyph, \"at\", \"elementDuration\", \"totalDuration\"}",
                schema: ValueSchema.object(revealTable)),
            default: .string("none"),
            help:
                "SwiftUI's text transition from the visual-effects session: elements fade, sharpen and spring in, one after another"
        ),
    ])

    enum StrokeKey {
        static let color = ParameterKey<Animated<RGBA>>("color")
        static let width = ParameterKey<Animated<Double>>("width")
    }

    static let strokeTable = ParameterTable([
        Parameter(
            StrokeKey.color, .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 1)),
            help: "the stroke's colour; animatable"),
        Parameter(
            StrokeKey.width, .constantNumber(0...200), default: .number(2),
            help: "pixels the outline reaches outside the glyphs (round joins); 0 = none"),
    ])

    enum BackgroundKey {
        static let color = ParameterKey<Animated<RGBA>>("color")
        static let padding = ParameterKey<Animated<Point2>>("padding")
        static let cornerRadius = ParameterKey<Animated<Double>>("cornerRadius")
    }

    static let backgroundTable = ParameterTable([
        Parameter(
            BackgroundKey.color, .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0.6)),
            help: "the fill, faded as one across the lines; animatable"),
        Parameter(
            BackgroundKey.padding, .point(0...4096), default: .point(Point2(x: 16, y: 6)),
            help: "[horizontal, vertical] pixels added around each line's ink advance and height; animatable"),
        Parameter(
            BackgroundKey.cornerRadius, .number(0...8192), default: .number(1000),
            help:
                "corner radius in pixels, at most half the pill's height (the default: a capsule); animatable"
        ),
    ])

    enum RevealKey {
        static let by = ParameterKey<String>("by")
        static let at = ParameterKey<Animated<Double>>("at")
        static let elementDuration = ParameterKey<Animated<Double>>("elementDuration")
        static let totalDuration = ParameterKey<Animated<Double>>("totalDuration")
    }

    static let revealTable = ParameterTable([
        Parameter(
            RevealKey.by, .choice(Reveal.Unit.allCases.map(\.rawValue)), default: .string("line"),
            help: "line or glyph"),
        Parameter(
            RevealKey.at, .constantNumber(0...(24 * 3600)), default: .number(0),
            help: "seconds on the timeline it starts"),
        Parameter(
            RevealKey.elementDuration, .constantNumber(0.01...60), default: .number(0.4),
            help: "seconds each element animates, at most totalDuration"),
        Parameter(
            RevealKey.totalDuration, .constantNumber(0.01...600), default: .number(0.9),
            help: "seconds the whole reveal takes"),
    ])

    public static let kind = LayerKind(
        name: "text", summary: "shaped text in any script, wrapped and aligned", parameters: parameters,
        schemaRules: [.when(.requiring(["emphasis"]), then: .requiring(["reveal"]))]
    ) { p, path, context in
        let descriptor = FontDescriptor(
            family: p[Key.font], weight: FontDescriptor.weightNames[p[Key.weight]] ?? 400,
            italic: p[Key.italic])
        let size = p[Key.size].value(at: 0)
        let width = p[Key.width].value(at: 0), lineHeight = p[Key.lineHeight].value(at: 0)
        if let problem = TextLimits.problem(text: p[Key.text], limits: context.limits) {
            context.error(problem, at: p.node(Key.text), path: p.path(Key.text))
            return nil
        }
        do {
            let library = try FontLibrary.shared()
            let layout = try TextLayout(
                text: p[Key.text], font: descriptor, size: size,
                lineHeight: lineHeight > 0 ? lineHeight : nil,
                maxWidth: width > 0 ? width : nil,
                wrap: TextLayout.Wrap(rawValue: p[Key.wrap]) ?? .greedy,
                alignment: TextLayout.Alignment(rawValue: p[Key.alignment]) ?? .leading, library: library
            )
            context.recordFonts(of: layout)
            var strokeWidth = 0.0
            var strokeColor = Animated<RGBA>.constant(RGBA(r: 0, g: 0, b: 0, a: 1))
            if let node = p.node(Key.stroke) {
                let before = context.diagnostics.count
                let decoded = strokeTable.decode(node, path: p.path(Key.stroke), context: context)
                guard context.diagnostics.count == before else { return nil }
                strokeWidth = decoded[StrokeKey.width].value(at: 0)
                strokeColor = decoded[StrokeKey.color]
            }
            var background: Background?
            if let node = p.node(Key.background) {
                let before = context.diagnostics.count
                let decoded = backgroundTable.decode(node, path: p.path(Key.background), context: context)
                guard context.diagnostics.count == before else { return nil }
                background = Background(
                    color: decoded[BackgroundKey.color], padding: decoded[BackgroundKey.padding],
                    cornerRadius: decoded[BackgroundKey.cornerRadius],
                    lines: layout.lines.filter { $0.width > 0 }.map { line in
                        (
                            line.x, line.width, line.baseline - layout.ascender,
                            layout.ascender + layout.descender
                        )
                    })
            }
            // The stroke's reach joins the glyphs' overhang.
            let margin = SaturatingConversion.int(size * 0.5 + strokeWidth, .up)
            if let problem = TextLimits.problem(layout: layout, margin: margin, limits: context.limits) {
                context.error(problem, at: p.node(Key.text), path: p.path(Key.text))
                return nil
            }
            guard
                TextLimits.chargePicture(
                    layout: layout, margin: margin,
                    copies: (p.node(Key.reveal) == nil ? 1 : 2) * (strokeWidth > 0 ? 2 : 1),
                    to: context.memory, kind: .text, at: path)
            else { return nil }
            var reveal: Reveal?
            if let node = p.node(Key.reveal) {
                let before = context.diagnostics.count
                let r = revealTable.decode(node, path: p.path(Key.reveal), context: context)
                guard context.diagnostics.count == before else { return nil }
                let byGlyph = r[RevealKey.by] == "glyph"
                var groups: [[TextLayout.Glyph]] =
                    byGlyph ? layout.glyphs.map { [$0] } : layout.lines.map { $0.runs.flatMap(\.glyphs) }
                var rest: [TextLayout.Glyph]?
                if let emphasisNode = p.node(Key.emphasis) {
                    guard
                        let ranges = decodeEmphasis(
                            emphasisNode, text: p[Key.text], path: p.path(Key.emphasis), context: context)
                    else { return nil }
                    let marked = layout.glyphs.filter { glyph in
                        ranges.contains { $0.contains(glyph.cluster) }
                    }
                    groups = marked.map { [$0] }
                    rest = layout.glyphs.filter { glyph in !ranges.contains { $0.contains(glyph.cluster) } }
                }
                let elementDuration = r[RevealKey.elementDuration].value(at: 0)
                reveal = Reveal(
                    groups: groups, restGlyphs: rest,
                    at: r[RevealKey.at].value(at: 0),
                    timing: RevealTiming(
                        count: groups.count, elementDuration: elementDuration,
                        totalDuration: r[RevealKey.totalDuration].value(at: 0)),
                    elements: groups.map { TextImage(layout, margin: margin, glyphs: $0) },
                    rest: rest.map { TextImage(layout, margin: margin, glyphs: $0) },
                    blur: (layout.ascender + layout.descender) / 16, drop: layout.descender,
                    // SwiftUI's .snappy(duration: elementDuration − 0.05, extraBounce: 0.4), as the seed.
                    spring: Spring(duration: max(elementDuration - 0.05, 0.01), bounce: 0.55))
            }
            if reveal == nil, let emphasisNode = p.node(Key.emphasis) {
                context.error(
                    "'emphasis' marks what a 'reveal' animates; add a reveal", at: emphasisNode,
                    path: p.path(Key.emphasis))
                return nil
            }
            var stroke: Stroke?
            if strokeWidth > 0 {
                func grown(_ glyphs: [TextLayout.Glyph]?) -> TextImage {
                    TextImage(layout, margin: margin, glyphs: glyphs, strokeRadius: strokeWidth)
                }
                stroke = Stroke(
                    color: strokeColor, width: strokeWidth, image: grown(nil),
                    elements: reveal?.groups.map(grown) ?? [], rest: reveal?.restGlyphs.map(grown))
            }
            return TextLayer(
                image: TextImage(layout, margin: margin), color: p[Key.color], reveal: reveal,
                baseline: layout.lines.first?.baseline ?? layout.ascender, stroke: stroke,
                background: background)
        } catch {
            context.error(
                "\(error)", at: p.node(Key.font) ?? p.node(Key.text),
                path: p.node(Key.font) != nil ? p.path(Key.font) : p.path(Key.text))
            return nil
        }
    }

    /// `[[from, to], …]` character ranges (0-based, `to` excluded) as UTF-8 ranges of `text`.
    static func decodeEmphasis(_ node: JSONNode, text: String, path: JSONPath, context: DecodeContext)
        -> [Range<Int>]?
    {
        let characters = Array(text)
        var utf8Start = [0]
        for character in characters { utf8Start.append(utf8Start.last! + character.utf8.count) }
        guard let elements = node.elements, !elements.isEmpty else {
            context.error("expected a non-empty array of [from, to] character ranges", at: node, path: path)
            return nil
        }
        var ranges: [Range<Int>] = []
        for (index, element) in elements.enumerated() {
            let pair = element.elements?.compactMap(\.number) ?? []
            guard pair.count == 2, pair.allSatisfy({ $0 == $0.rounded() }), let from = Int(exactly: pair[0]),
                let to = Int(exactly: pair[1]), 0 <= from, from < to, to <= characters.count
            else {
                context.error(
                    "expected [from, to] with 0 ≤ from < to ≤ \(characters.count) (the text's characters)",
                    at: element,
                    path: path.index(index))
                return nil
            }
            ranges.append(utf8Start[from]..<utf8Start[to])
        }
        return ranges
    }

    public func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double> { image.box }

    public func firstBaseline(at time: Double, canvas: Canvas) -> Double? { baseline }

    public func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer {
        let tint = TextLayer.tint(color.value(at: time))
        let strokeTint = stroke.map { TextLayer.tint($0.color.value(at: time)) }
        var items = background?.items(at: time, canvas: canvas, transform: transform) ?? []
        /// The stroke's picture under the text's, as one element: faded or blurred, the two
        /// together, so the stroke never shows through the half-faded glyphs above it.
        func add(
            _ picture: TextImage, stroke grown: TextImage?, opacity: Float, blur: Double, transform: Affine2D
        ) {
            guard let grown, let strokeTint else {
                items += Self.items(
                    picture, tint: tint, opacity: opacity, blur: blur, transform: transform, canvas: canvas)
                return
            }
            let gaussian = GaussianBlur(radius: blur * canvas.lengthScale)
            let parts = [(grown, strokeTint), (picture, tint)].flatMap { image, matrix in
                Self.items(image, tint: matrix, opacity: 1, blur: 0, transform: transform, canvas: canvas)
            }
            guard opacity < 1 || !gaussian.isIdentity else {
                items += parts
                return
            }
            let element = PreparedGroup(children: LayerStack(items: parts), clip: nil)
            items.append(
                gaussian.isIdentity
                    ? PreparedItem(layer: element, opacity: opacity, colors: nil)
                    : PreparedItem(
                        layer: element, opacity: opacity, colors: nil,
                        offscreen: Offscreen(layer: element, colors: nil, blur: gaussian, canvas: canvas)))
        }
        if let reveal, time < reveal.at + reveal.timing.totalDuration {
            if let rest = reveal.rest, time >= reveal.at {
                let easeIn = Easing.easeIn
                let opacity = easeIn(min((time - reveal.at) / Reveal.restFade, 1))
                if opacity > 0 {
                    add(rest, stroke: stroke?.rest, opacity: Float(opacity), blur: 0, transform: transform)
                }
            }
            for (index, element) in reveal.elements.enumerated() {
                let state = reveal.state(of: index, at: time)
                guard state.opacity > 0 else { continue }
                add(
                    element, stroke: stroke?.elements[index], opacity: Float(state.opacity), blur: state.blur,
                    transform: transform.concatenating(.translation(0, state.offset)))
            }
        } else {
            add(image, stroke: stroke?.image, opacity: 1, blur: 0, transform: transform)
        }
        return PreparedGroup(children: LayerStack(items: items), clip: nil)
    }

    /// The matrix that turns white coverage into `c`, premultiplied.
    static func tint(_ c: RGBA) -> ColorMatrix {
        ColorMatrix(rows: [
            [c.r * c.a, 0, 0, 0], [0, c.g * c.a, 0, 0], [0, 0, c.b * c.a, 0], [0, 0, 0, c.a],
        ])
    }

    /// The matrix's diagonal when it is a tint that keeps premultiplied values valid (no
    /// channel mixing, 0 ≤ colour ≤ alpha ≤ 1): then the image painter applies it as it
    /// composites, instead of a separate pass over a scratch band.
    static func diagonal(_ matrix: ColorMatrix) -> SIMD4<Float>? {
        let m = matrix.m
        for i in 0..<4 {
            for j in 0..<4 where i != j && m[4 * i + j] != 0 { return nil }
        }
        let d = SIMD4(m[0], m[5], m[10], m[15])
        guard d.min() >= 0, d[3] <= 1, d[0] <= d[3], d[1] <= d[3], d[2] <= d[3] else { return nil }
        return SIMD4<Float>(d)
    }

    /// A text picture's items: the tinted coverage and the colour glyphs, faded and blurred.
    /// - Parameter viewport: when set, only this rectangle of `transform`'s space is shown.
    static func items(
        _ picture: TextImage, tint: ColorMatrix, opacity: Float, blur: Double, transform: Affine2D,
        canvas: Canvas, viewport: (min: SIMD2<Double>, max: SIMD2<Double>)? = nil
    ) -> [PreparedItem] {
        // The pictures start `offset` into the box grown by `margin` on every side.
        let corner = SIMD2<Double>(picture.offset) - Double(picture.margin)
        let frameFromImage = transform.concatenating(.translation(corner.x, corner.y))
        // `blur` is in the text's units, which are frame pixels at full size.
        let gaussian = GaussianBlur(radius: blur * canvas.lengthScale)
        var items: [PreparedItem] = []
        let pictures: [(RasterImage?, ColorMatrix?)] = [(picture.coverage, tint), (picture.color, nil)]
        for (image, matrix) in pictures {
            guard let image else { continue }
            let scales = matrix.flatMap(diagonal)
            let colors = scales == nil ? matrix : nil
            let whole = (min: SIMD2<Double>.zero, max: SIMD2(Double(image.width), Double(image.height)))
            let layer = PreparedImage(
                painter: ImagePainter(
                    image: image, frameFromImage: frameFromImage,
                    visible: viewport.map { ($0.min - corner, $0.max - corner) } ?? whole,
                    frameWidth: canvas.width, frameHeight: canvas.height),
                tint: scales ?? SIMD4(1, 1, 1, 1))
            if gaussian.isIdentity {
                items.append(PreparedItem(layer: layer, opacity: opacity, colors: colors))
            } else {
                let offscreen = Offscreen(layer: layer, colors: colors, blur: gaussian, canvas: canvas)
                items.append(PreparedItem(layer: layer, opacity: opacity, colors: nil, offscreen: offscreen))
            }
        }
        return items
    }
}

extension TextLayer.Background {
    /// The lines' rounded rectangles, opaque, in one group faded by the colour's alpha.
    func items(at time: Double, canvas: Canvas, transform: Affine2D) -> [PreparedItem] {
        let c = color.value(at: time)
        let alpha = min(max(c.a, 0), 1)
        guard alpha > 0, !lines.isEmpty else { return [] }
        let pad = padding.value(at: time), radius = cornerRadius.value(at: time)
        let fill = SIMD4<Float>(
            Float(min(max(c.r, 0), 1)), Float(min(max(c.g, 0), 1)), Float(min(max(c.b, 0), 1)), 1)
        let pills = lines.map { line in
            PreparedItem(
                layer: PreparedShape(
                    painter: RoundedRectPainter(
                        size: SIMD2(line.width + 2 * pad.x, line.height + 2 * pad.y), cornerRadius: radius,
                        frameFromLocal: transform.concatenating(
                            .translation(line.x - pad.x, line.top - pad.y)),
                        fill: fill, stroke: SIMD4(), strokeWidth: 0, frameWidth: canvas.width,
                        frameHeight: canvas.height)),
                opacity: 1, colors: nil)
        }
        return [
            PreparedItem(
                layer: PreparedGroup(children: LayerStack(items: pills), clip: nil), opacity: Float(alpha),
                colors: nil)
        ]
    }
}
