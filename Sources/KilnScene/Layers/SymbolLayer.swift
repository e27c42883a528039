import Foundation
import KilnModel
import KilnRaster
import KilnSymbols

/// An icon made of named layers (SF Symbols' idea, with Kiln's own artwork): drawn at a point
/// size on a baseline as text is, in one colour, a palette or hierarchical opacities, and animated
/// by symbol effects (bounce, pulse, variable colour, scale, appear/disappear), a `replace`
/// content transition between symbols and a variable value.
///
/// The layer's box is its symbol's view box scaled so the cap height is Noto Sans' at `size`
/// (0.72 × size), so a symbol and a text of the same size line up in a baseline-aligned row.
public struct SymbolLayer: LayerRendering {
    public enum RenderingMode: String, Sendable, CaseIterable {
        /// Every layer in `color`.
        case monochrome
        /// `color` at the opacity of each layer's level: primary 1, secondary 0.5, tertiary 0.25.
        case hierarchical
        /// A colour per layer, in drawing order; the last repeats when the palette runs out.
        case palette
    }

    /// The symbol first shown, then each replacement's, in `replacements` order.
    public let artworks: [SymbolArtwork]
    public let pointSize: Double
    public let mode: RenderingMode
    public let color: Animated<RGBA>
    public let palette: [Animated<RGBA>]
    public let variableValue: Animated<Double>?
    public let replacements: [SymbolReplacement]
    public let contentTransition: SymbolContentTransition

    /// Noto Sans' cap height per unit of size, so symbols match text of the same size.
    static let capHeightPerPoint = 0.72

    enum Key {
        static let symbol = ParameterKey<String>("symbol")
        static let file = ParameterKey<URL?>("file")
        static let size = ParameterKey<Animated<Double>>("size")
        static let renderingMode = ParameterKey<String>("renderingMode")
        static let color = ParameterKey<Animated<RGBA>>("color")
        static let palette = ParameterKey<[Animated<RGBA>]>("palette")
        static let variableValue = ParameterKey<Animated<Double>>("variableValue")
        static let replacements = ParameterKey<JSONNode?>("replacements")
        static let contentTransition = ParameterKey<JSONNode?>("contentTransition")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.symbol, .string, default: .string(""), defaultDescription: "none: `file` names it",
            help: "a shipped symbol's name (`kiln symbols` lists them), e.g. wifi, play.fill, moon.stars"),
        Parameter(
            Key.file, .assetPath, default: .string(""), defaultDescription: "none: `symbol` names it",
            help: "a symbol SVG of your own (docs/symbols.md), relative to the job file"),
        Parameter(
            Key.size, .constantNumber(1...2_000), default: .number(96),
            help: "point size in pixels, as a text's: the symbol's cap height is 0.72 × size"),
        Parameter(
            Key.renderingMode, .choice(RenderingMode.allCases.map(\.rawValue)),
            default: .string("monochrome"),
            help:
                "monochrome (every layer in color), hierarchical (color at each layer's level: 1, 0.5, 0.25) "
                + "or palette (a colour per layer)"),
        Parameter(
            Key.color, .color, default: .color(RGBA(r: 1, g: 1, b: 1, a: 1)),
            help: "the symbol's colour (monochrome and hierarchical)"),
        Parameter(
            Key.palette, .colorList,
            help: "palette mode: a colour per layer in drawing order, the last repeating; each animatable"),
        Parameter(
            Key.variableValue, .number(0...1), default: .number(1),
            defaultDescription: "none: every layer lit",
            help:
                "0…1: variable layers are lit when the value reaches their threshold, dimmed below it; "
                + "a change cross-fades"),
        Parameter(
            Key.replacements,
            .structured(
                "array of {\"at\": seconds, \"symbol\" | \"file\"}",
                schema: .array(of: ValueSchema.object(replacementTable).with("oneOf", namingOneSymbol))),
            default: .string("none"),
            help: "the symbol changes to another at these times, through `contentTransition`"),
        Parameter(
            Key.contentTransition,
            .structured(
                "replace[.downUp|.upUp|.offUp][.byLayer|.wholeSymbol]",
                schema: ValueSchema.choice(SymbolContentTransition.names)),
            default: .string("replace.downUp.byLayer"),
            help: "how a replacement animates: replace[.downUp|.upUp|.offUp][.byLayer|.wholeSymbol]"),
    ])

    /// A replacement names exactly one symbol (`artwork(_:path:context:)`).
    static let namingOneSymbol: [JSONSchema] = [.requiring(["symbol"]), .requiring(["file"])]

    /// A replacement's `symbol` and `file` are the layer's own keys (`Key`): `artwork` reads
    /// them from either table.
    enum ReplacementKey {
        static let at = ParameterKey<Animated<Double>>("at")
    }

    static let replacementTable = ParameterTable([
        Parameter(ReplacementKey.at, .constantNumber(0...(24 * 3600)), help: "seconds on the timeline"),
        Parameter(
            Key.symbol, .string, default: .string(""), defaultDescription: "none: `file` names it",
            help: "a shipped symbol's name"),
        Parameter(
            Key.file, .assetPath, default: .string(""), defaultDescription: "none: `symbol` names it",
            help: "a symbol SVG of your own, relative to the job file"),
    ])

    public static let kind = LayerKind(
        name: "symbol",
        summary: "an icon of named layers (shipped or your own SVG) with symbol effects, on a baseline",
        parameters: parameters, schemaRules: [JSONSchema().with("oneOf", namingOneSymbol)]
    ) { p, path, context in
        let before = context.diagnostics.count
        let first = artwork(p, path: path, context: context)
        var artworks = first.map { [$0] } ?? []
        var replacements: [SymbolReplacement] = []
        if let node = p.node(Key.replacements) {
            guard let elements = node.elements else {
                context.error(
                    "expected an array of {\"at\": seconds, \"symbol\" | \"file\"}", at: node,
                    path: p.path(Key.replacements))
                return nil
            }
            var last = -Double.infinity
            for (index, element) in elements.enumerated() {
                let elementPath = p.path(Key.replacements).index(index)
                let r = replacementTable.decode(element, path: elementPath, context: context)
                let at = r[ReplacementKey.at].value(at: 0)
                if at <= last {
                    context.error(
                        "replacements must be in time order: \(at) s is not after \(last) s",
                        at: r.node(ReplacementKey.at) ?? element,
                        path: elementPath.key("at"))
                }
                last = max(last, at)
                if let art = artwork(r, path: elementPath, context: context) {
                    replacements.append(SymbolReplacement(time: at, artwork: artworks.count))
                    artworks.append(art)
                }
            }
        }
        var transition = SymbolContentTransition.default
        if let node = p.node(Key.contentTransition) {
            guard
                let parsed = SymbolContentTransition.decode(
                    node, path: p.path(Key.contentTransition), context: context)
            else { return nil }
            transition = parsed
        }
        guard first != nil, context.diagnostics.count == before else { return nil }
        let layer = SymbolLayer(
            artworks: artworks, pointSize: p[Key.size].value(at: 0),
            mode: RenderingMode(rawValue: p[Key.renderingMode]) ?? .monochrome, color: p[Key.color],
            palette: p[Key.palette],
            variableValue: p.isPresent(Key.variableValue) ? p[Key.variableValue] : nil,
            replacements: replacements, contentTransition: transition)
        guard layer.chargeOutlines(to: context.memory, at: path) else { return nil }
        return layer
    }

    /// The symbol an object names by `symbol` or `file` (exactly one of them).
    static func artwork(_ p: DecodedParameters, path: JSONPath, context: DecodeContext) -> SymbolArtwork? {
        let name = p[Key.symbol]
        switch (p.isPresent(Key.symbol), p.isPresent(Key.file)) {
        case (true, true):
            context.error(
                "give either 'symbol' (a shipped one) or 'file' (your own SVG), not both",
                at: p.node(Key.file), path: p.path(Key.file))
            return nil
        case (false, false):
            context.error(
                "missing 'symbol' (a shipped symbol's name) or 'file' (an SVG of your own)", at: nil,
                path: path)
            return nil
        case (true, false):
            if let artwork = SymbolCatalog.shipped(name) { return artwork }
            var message = "unknown symbol '\(name)'"
            if let near = Suggestion.closest(to: name, among: SymbolCatalog.shippedNames) {
                message += "; did you mean '\(near)'?"
            }
            message += " (`kiln symbols` lists the shipped ones; `file` draws your own SVG)"
            context.error(message, at: p.node(Key.symbol), path: p.path(Key.symbol))
            return nil
        case (false, true):
            guard let url = p[Key.file] else { return nil }
            do {
                return try SymbolCatalog.load(file: url.path)
            } catch {
                context.error(error.description, at: p.node(Key.file), path: p.path(Key.file))
                return nil
            }
        }
    }

    public init(
        artworks: [SymbolArtwork], pointSize: Double, mode: RenderingMode = .monochrome,
        color: Animated<RGBA> = .constant(RGBA(r: 1, g: 1, b: 1, a: 1)), palette: [Animated<RGBA>] = [],
        variableValue: Animated<Double>? = nil, replacements: [SymbolReplacement] = [],
        contentTransition: SymbolContentTransition
    ) {
        precondition(!artworks.isEmpty, "a symbol layer draws at least one symbol")
        self.artworks = artworks
        self.pointSize = pointSize
        self.mode = mode
        self.color = color
        self.palette = palette
        self.variableValue = variableValue
        self.replacements = replacements
        self.contentTransition = contentTransition
    }

    /// The most layers any of its symbols has.
    var layerCount: Int { artworks.map(\.layers.count).max() ?? 0 }

    /// Charges the most a frame's outlines can keep: every point of every shape flattened at
    /// the layer's size, each an edge, each stroke piece (a quad, or a round join's circle)
    /// kept whole, for two frames (the one painting and the next one preparing).
    func chargeOutlines(to budget: MemoryBudget, at path: JSONPath) -> Bool {
        var edges = 0.0
        for artwork in artworks {
            let pixelsPerUnit = max(scale(of: artwork), 1e-9)
            let tolerance = PathPainter.defaultTolerance / pixelsPerUnit
            for layer in artwork.layers {
                for shape in layer.shapes {
                    let points = Double(shape.path.flattenedPointCount(tolerance: tolerance))
                    edges += points
                    if let stroke = shape.stroke {
                        let coarse = PathPainter.strokeTolerance / pixelsPerUnit
                        let strokePoints = Double(shape.path.flattenedPointCount(tolerance: coarse))
                        edges += strokePoints * Double(stroke.piecePoints(tolerance: coarse) + 4)
                    }
                }
            }
        }
        // An edge is 28 bytes; a flattened point 16 while it is stroked.
        return budget.charge(
            .path, 2 * edges * 44, "symbol outlines (\(SaturatingConversion.int(edges)) edges)", at: path)
    }

    /// Pixels per view-box unit of `artwork`.
    func scale(of artwork: SymbolArtwork) -> Double {
        pointSize * Self.capHeightPerPoint / max(artwork.capHeight, 1e-9)
    }

    public func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double> {
        artworks[0].size * scale(of: artworks[0])
    }

    public func firstBaseline(at time: Double, canvas: Canvas) -> Double? {
        artworks[0].baseline * scale(of: artworks[0])
    }

    public func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer {
        prepare(at: time, canvas: canvas, transform: transform, effects: [], presence: nil)
    }

    /// The symbol at `time` with the symbol effects that reach it (its own, then inherited).
    func prepare(
        at time: Double, canvas: Canvas, transform: Affine2D, effects: [SymbolEffect],
        presence: SymbolPresence?
    ) -> any PreparedLayer {
        let animation = SymbolAnimation(
            effects: effects, replacements: replacements, contentTransition: contentTransition,
            variableValue: variableValue, presence: presence)
        let drawings = animation.drawings(at: time) { artworks[$0].layerInfo }
        let box = contentSize(at: time, canvas: canvas)
        var items: [PreparedItem] = []
        for drawing in drawings where drawing.whole.opacity > 0 {
            let artwork = artworks[drawing.artwork]
            let scale = scale(of: artwork)
            // Every symbol sits on the first one's baseline, centred across the box.
            let origin = SIMD2(
                (box.x - artwork.size.x * scale) / 2,
                artworks[0].baseline * self.scale(of: artworks[0]) - artwork.baseline * scale)
            let local = Affine2D.translation(origin.x, origin.y).concatenating(.scale(scale, scale))
            let whole = drawing.whole.affine(in: (SIMD2<Double>.zero, box), height: box.y)
            for (index, layer) in artwork.layers.enumerated() {
                let pose = drawing.layers[index]
                let opacity = drawing.whole.opacity * pose.opacity
                guard opacity > 0 else { continue }
                let bounds = (min: layer.bounds.min * scale + origin, max: layer.bounds.max * scale + origin)
                let place = transform.concatenating(whole).concatenating(
                    pose.affine(in: bounds, height: box.y)
                )
                .concatenating(local)
                let color = color(ofLayer: index, level: layer.level, at: time)
                var painters: [PathPainter] = []
                for shape in layer.shapes {
                    let parts: [(FillRule, StrokeStyle?, Double)?] = [
                        shape.fill.map { ($0, nil, shape.fillOpacity) },
                        shape.stroke.map { (.nonZero, $0, shape.strokeOpacity) },
                    ]
                    for case let (rule, stroke, shapeOpacity)? in parts {
                        let c = color * Float(shapeOpacity)
                        guard c.w > 0,
                            let painter = PathPainter(
                                path: shape.path, fillRule: rule, stroke: stroke, frameFromLocal: place,
                                paint: .solid(c), frameWidth: canvas.width, frameHeight: canvas.height)
                        else { continue }
                        painters.append(painter)
                    }
                }
                // A layer fades as one picture (its strokes over its fills do not show through).
                if !painters.isEmpty {
                    items.append(
                        PreparedItem(
                            layer: PreparedShapes(painters: painters), opacity: Float(opacity), colors: nil))
                }
            }
        }
        return PreparedGroup(children: LayerStack(items: items), clip: nil)
    }

    /// The premultiplied colour a layer is drawn in, before opacities.
    func color(ofLayer index: Int, level: SymbolLayerLevel, at time: Double) -> SIMD4<Float> {
        switch mode {
        case .monochrome:
            return color.value(at: time).premultiplied.simd
        case .hierarchical:
            var c = color.value(at: time)
            c.a *= level.hierarchicalOpacity
            return c.premultiplied.simd
        case .palette:
            guard let last = palette.last else { return color.value(at: time).premultiplied.simd }
            return (index < palette.count ? palette[index] : last).value(at: time).premultiplied.simd
        }
    }
}

extension SymbolPose {
    /// The pose as a transform of the layer's space: offset (in symbol heights), then scale about
    /// the anchor point of `box`.
    func affine(in box: (min: SIMD2<Double>, max: SIMD2<Double>), height: Double) -> Affine2D {
        guard scale != SIMD2(1, 1) || offset != .zero else { return .identity }
        let pivot = box.min + (box.max - box.min) * anchor
        let shift = offset * height
        return Affine2D.translation(pivot.x + shift.x, pivot.y + shift.y)
            .concatenating(.scale(scale.x, scale.y))
            .concatenating(.translation(-pivot.x, -pivot.y))
    }
}

/// One layer of a symbol for one frame: its shapes' painters, bottom to top.
struct PreparedShapes: PreparedLayer {
    let painters: [PathPainter]
    let extent: PixelExtent?

    init(painters: [PathPainter]) {
        self.painters = painters
        guard let first = painters.first else {
            extent = .empty
            return
        }
        var rows = first.rows, columns = first.columns
        for painter in painters.dropFirst() {
            rows =
                min(rows.lowerBound, painter.rows.lowerBound)..<max(rows.upperBound, painter.rows.upperBound)
            columns =
                min(
                    columns.lowerBound, painter.columns.lowerBound)..<max(
                    columns.upperBound, painter.columns.upperBound)
        }
        extent = PixelExtent(rows: rows, columns: columns)
    }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        band.fill(.transparent, rows: rows, columns: columns)
        for painter in painters {
            painter.paintOver(into: band, firstRow: firstRow, rows: rows, columns: columns, opacity: 1)
        }
    }

    func paintOver(
        into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, opacity: Float, pool: BandPool
    ) -> Bool {
        // Shapes of one symbol overlap (a stroke over its fill): fading each on its own would
        // show the overlaps, so a faded symbol is composited through a scratch band instead.
        guard opacity == 1 else { return false }
        for painter in painters {
            painter.paintOver(into: band, firstRow: firstRow, rows: rows, columns: columns, opacity: 1)
        }
        return true
    }
}
