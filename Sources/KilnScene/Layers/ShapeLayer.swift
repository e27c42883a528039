import KilnModel
import KilnRaster

/// SwiftUI's basic shapes — Rectangle, RoundedRectangle, Circle, Capsule — and SVG path data,
/// filled and/or stroked, placed by the layer transform and anti-aliased by coverage.
///
/// The shape lives in a `size` box, which the transform's anchor refers to. A circle takes the
/// box's shorter side as its diameter, centred; a capsule rounds the shorter side fully; a
/// rounded rectangle uses circular corners of `cornerRadius` (at most half the shorter side).
/// A path's coordinates are pixels of the box (it may reach outside it). The stroke is centred
/// on the outline, as SwiftUI's `stroke`.
public struct ShapeLayer: LayerRendering {
    public enum Form: String, Sendable, CaseIterable {
        case rect, roundedRect, circle, capsule, path

        /// The rounded rectangle that draws this form in a `box`: its size, corner radius and
        /// placement (a circle is the box's largest centred square with full rounding).
        func outline(in box: SIMD2<Double>, cornerRadius: Double, transform: Affine2D) -> (
            size: SIMD2<Double>, radius: Double, transform: Affine2D
        ) {
            switch self {
            case .rect, .path: return (box, 0, transform)
            case .roundedRect: return (box, cornerRadius, transform)
            case .capsule: return (box, min(box.x, box.y) / 2, transform)
            case .circle:
                let side = min(box.x, box.y)
                return (
                    SIMD2(side, side), side / 2,
                    transform.concatenating(.translation((box.x - side) / 2, (box.y - side) / 2))
                )
            }
        }
    }

    public let form: Form
    public let size: Animated<Point2>
    public let cornerRadius: Animated<Double>
    public let fill: Animated<RGBA>
    public let stroke: Animated<RGBA>
    public let strokeWidth: Animated<Double>
    public let gradient: [Animated<RGBA>]
    public let gradientStart: Animated<Point2>
    public let gradientEnd: Animated<Point2>
    /// The outline of the `path` form, in the box's pixels (decoded and checked at load).
    public let path: VectorPath
    public let fillRule: FillRule
    public let lineCap: LineCap
    public let lineJoin: LineJoin
    public let miterLimit: Double

    enum Key {
        static let shape = ParameterKey<String>("shape")
        static let size = ParameterKey<Animated<Point2>>("size")
        static let cornerRadius = ParameterKey<Animated<Double>>("cornerRadius")
        static let fill = ParameterKey<Animated<RGBA>>("fill")
        static let stroke = ParameterKey<Animated<RGBA>>("stroke")
        static let strokeWidth = ParameterKey<Animated<Double>>("strokeWidth")
        static let gradient = ParameterKey<[Animated<RGBA>]>("gradient")
        static let gradientStart = ParameterKey<Animated<Point2>>("gradientStart")
        static let gradientEnd = ParameterKey<Animated<Point2>>("gradientEnd")
        static let path = ParameterKey<String>("path")
        static let fillRule = ParameterKey<String>("fillRule")
        static let lineCap = ParameterKey<String>("lineCap")
        static let lineJoin = ParameterKey<String>("lineJoin")
        static let miterLimit = ParameterKey<Animated<Double>>("miterLimit")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.shape, .choice(Form.allCases.map(\.rawValue)), default: .string("roundedRect"),
            help: "rect, roundedRect, circle, capsule, or path (the outline given by `path`)"),
        Parameter(
            Key.size, .point(0...16_384), help: "[width, height] of the shape's box in pixels"),
        Parameter(
            Key.cornerRadius, .number(0...8_192), default: .number(0),
            help: "roundedRect corner radius in pixels (circular corners), at most half the shorter side"),
        Parameter(
            Key.fill, .color, default: .color(RGBA(r: 1, g: 1, b: 1, a: 1)), help: "fill colour"),
        Parameter(
            Key.stroke, .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0)),
            help: "outline colour, drawn centred on the edge over the fill"),
        Parameter(
            Key.strokeWidth, .number(0...1_000), default: .number(0),
            help: "outline width in pixels"),
        Parameter(
            Key.gradient, .colorList,
            help:
                "fill with a linear gradient of these colours, evenly spaced (SwiftUI's LinearGradient(colors:…)), "
                + "instead of fill; each animatable"
        ),
        Parameter(
            Key.gradientStart, .point(-10...10), default: .point(Point2(x: 0.5, y: 0)),
            help:
                "unit point of the box where the gradient starts (before it the first colour continues)"
        ),
        Parameter(
            Key.gradientEnd, .point(-10...10), default: .point(Point2(x: 0.5, y: 1)),
            help:
                "unit point of the box where the gradient ends (beyond it the last colour continues)"
        ),
        Parameter(
            Key.path, .string, default: .string(""),
            help:
                "SVG path data (M L H V C S Q T A Z, absolute and relative) in the box's pixels; required by and only for shape path"
        ),
        Parameter(
            Key.fillRule, .choice(FillRule.allCases.map(\.rawValue)), default: .string("nonZero"),
            help: "path: which points are inside — nonZero (any winding) or evenOdd (odd crossings: holes)"),
        Parameter(
            Key.lineCap, .choice(LineCap.allCases.map(\.rawValue)), default: .string("butt"),
            help: "path stroke ends: butt, round or square"),
        Parameter(
            Key.lineJoin, .choice(LineJoin.allCases.map(\.rawValue)), default: .string("miter"),
            help: "path stroke corners: miter, round or bevel"),
        Parameter(
            Key.miterLimit, .constantNumber(1...100), default: .number(4),
            help: "path: longest miter as a multiple of strokeWidth before the corner is beveled (SVG's)"),
    ])

    public static let kind = LayerKind(
        name: "shape", summary: "a rectangle, rounded rectangle, circle or capsule, filled and stroked",
        parameters: parameters,
        schemaRules: [
            .when(.having("shape", .enumeration([Form.path.rawValue])), then: .requiring(["path"])),
            .when(
                .anyOf([
                    JSONSchema.forbidding(["shape"]),
                    .having("shape", .enumeration(Form.allCases.filter { $0 != .path }.map(\.rawValue))),
                ]), then: .forbidding(["path"])),
        ]
    ) { params, jsonPath, context in
        let form = Form(rawValue: params[Key.shape]) ?? .roundedRect
        var outline = VectorPath()
        let data = params[Key.path]
        if form == .path {
            do throws(SVGPathSyntaxError) {
                outline = try SVGPathData.parse(data)
            } catch {
                context.error(error.description, at: params.node(Key.path), path: params.path(Key.path))
                return nil
            }
            if outline.isEmpty {
                context.error(
                    "shape \"path\" needs SVG path data in `path`", at: params.node(Key.shape),
                    path: params.path(Key.path))
                return nil
            }
        } else if params.isPresent(Key.path) {
            context.error(
                "`path` is only used with \"shape\": \"path\"", at: params.node(Key.path),
                path: params.path(Key.path))
            return nil
        }
        let lineCap = LineCap(rawValue: params[Key.lineCap]) ?? .butt
        let lineJoin = LineJoin(rawValue: params[Key.lineJoin]) ?? .miter
        let miterLimit = params[Key.miterLimit].value(at: 0)
        if form == .path {
            // The outline's edges, and the stroke's (each flattened point gets a join's or a cap's
            // piece) at the widest the stroke gets, charged before anything is flattened.
            let tolerance = PathPainter.defaultTolerance
            let points = Double(outline.flattenedPointCount(tolerance: tolerance))
            var edges = points
            let width = widest(params[Key.strokeWidth], over: context.timelineDuration ?? 0)
            if width > 0 {
                let style = StrokeStyle(width: width, cap: lineCap, join: lineJoin, miterLimit: miterLimit)
                let coarse = PathPainter.strokeTolerance
                let strokePoints = Double(outline.flattenedPointCount(tolerance: coarse))
                edges += strokePoints * Double(style.piecePoints(tolerance: coarse) + 4)
            }
            // An edge is 28 bytes; a flattened point 16 while it is stroked (as for symbols).
            guard
                context.memory.charge(
                    .path, 2 * edges * 44, "path outline (\(SaturatingConversion.int(edges)) edges)",
                    at: params.path(Key.path))
            else { return nil }
        }
        return ShapeLayer(
            form: form, size: params[Key.size],
            cornerRadius: params[Key.cornerRadius], fill: params[Key.fill],
            stroke: params[Key.stroke],
            strokeWidth: params[Key.strokeWidth], gradient: params[Key.gradient],
            gradientStart: params[Key.gradientStart], gradientEnd: params[Key.gradientEnd],
            path: outline, fillRule: FillRule(rawValue: params[Key.fillRule]) ?? .nonZero,
            lineCap: lineCap, lineJoin: lineJoin, miterLimit: miterLimit)
    }

    /// The largest value `width` takes over the timeline, sampled at 240 times (an animated
    /// width's extremes are at its keyframes, which a sample this fine comes within a frame of).
    static func widest(_ width: Animated<Double>, over duration: Double) -> Double {
        (0...240).map { width.value(at: duration * Double($0) / 240) }.filter(\.isFinite).max() ?? 0
    }

    public init(
        form: Form, size: Animated<Point2>, cornerRadius: Animated<Double> = .constant(0),
        fill: Animated<RGBA>, stroke: Animated<RGBA> = .constant(RGBA(r: 0, g: 0, b: 0, a: 0)),
        strokeWidth: Animated<Double> = .constant(0), gradient: [Animated<RGBA>] = [],
        gradientStart: Animated<Point2> = .constant(Point2(x: 0.5, y: 0)),
        gradientEnd: Animated<Point2> = .constant(Point2(x: 0.5, y: 1)), path: VectorPath = VectorPath(),
        fillRule: FillRule = .nonZero, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter,
        miterLimit: Double = 4
    ) {
        self.form = form
        self.size = size
        self.cornerRadius = cornerRadius
        self.fill = fill
        self.stroke = stroke
        self.strokeWidth = strokeWidth
        self.gradient = gradient
        self.gradientStart = gradientStart
        self.gradientEnd = gradientEnd
        self.path = path
        self.fillRule = fillRule
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
    }

    public func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double> {
        let s = size.value(at: time)
        return SIMD2(max(s.x, 0), max(s.y, 0))
    }

    public func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer {
        let box = contentSize(at: time, canvas: canvas)
        if form == .path { return preparePath(at: time, box: box, canvas: canvas, transform: transform) }
        let (rectSize, radius, place) = form.outline(
            in: box, cornerRadius: cornerRadius.value(at: time), transform: transform)
        // Gradient points are unit points of the whole box; the circle's square sits inside it.
        var linear: LinearGradient?
        if !gradient.isEmpty {
            let inset = (box - rectSize) / 2
            func point(_ p: Animated<Point2>) -> SIMD2<Float> {
                let v = p.value(at: time)
                return SIMD2<Float>(SIMD2(v.x * box.x, v.y * box.y) - inset)
            }
            linear = LinearGradient(
                start: point(gradientStart), end: point(gradientEnd),
                stops: gradient.map { $0.value(at: time).premultiplied.simd })
        }
        let painter = RoundedRectPainter(
            size: rectSize, cornerRadius: radius, frameFromLocal: place,
            fill: fill.value(at: time).premultiplied.simd,
            stroke: stroke.value(at: time).premultiplied.simd, strokeWidth: strokeWidth.value(at: time),
            frameWidth: canvas.width, frameHeight: canvas.height, gradient: linear)
        return PreparedShape(painter: painter)
    }
}

extension ShapeLayer {
    /// The path form: a fill painter and a stroke painter over it, each nil when invisible.
    func preparePath(at time: Double, box: SIMD2<Double>, canvas: Canvas, transform: Affine2D)
        -> any PreparedLayer
    {
        let fillColor = fill.value(at: time).premultiplied.simd
        var paint = PathPaint.solid(fillColor)
        var filled = fillColor.w > 0
        if !gradient.isEmpty {
            // Gradient points are unit points of the box, which is the path's own space.
            func point(_ p: Animated<Point2>) -> SIMD2<Float> {
                let v = p.value(at: time)
                return SIMD2<Float>(SIMD2(v.x * box.x, v.y * box.y))
            }
            paint = .gradient(
                LinearGradient(
                    start: point(gradientStart), end: point(gradientEnd),
                    stops: gradient.map { $0.value(at: time).premultiplied.simd }))
            filled = true
        }
        let fillPainter =
            filled
            ? PathPainter(
                path: path, fillRule: fillRule, stroke: nil, frameFromLocal: transform, paint: paint,
                frameWidth: canvas.width, frameHeight: canvas.height) : nil
        let strokeColor = stroke.value(at: time).premultiplied.simd
        let width = strokeWidth.value(at: time)
        let strokePainter =
            strokeColor.w > 0 && width > 0
            ? PathPainter(
                path: path, fillRule: .nonZero,
                stroke: StrokeStyle(width: width, cap: lineCap, join: lineJoin, miterLimit: miterLimit),
                frameFromLocal: transform, paint: .solid(strokeColor), frameWidth: canvas.width,
                frameHeight: canvas.height) : nil
        return PreparedPathShape(fill: fillPainter, stroke: strokePainter)
    }
}

/// A path shape for one frame: the stroke is composited over the fill, as SVG paints them.
struct PreparedPathShape: PreparedLayer {
    let fill: PathPainter?
    let stroke: PathPainter?

    var extent: PixelExtent? {
        let parts = [fill, stroke].compactMap { $0.map { PixelExtent(rows: $0.rows, columns: $0.columns) } }
        return parts.dropFirst().reduce(parts.first ?? .empty) { $0.union($1) }
    }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        if let fill {
            fill.paint(into: band, firstRow: firstRow, rows: rows, columns: columns)
        } else {
            band.fill(.transparent, rows: rows, columns: columns)
        }
        stroke?.paintOver(into: band, firstRow: firstRow, rows: rows, columns: columns, opacity: 1)
    }
}

struct PreparedShape: PreparedLayer {
    let painter: RoundedRectPainter?

    var extent: PixelExtent? {
        painter.map { PixelExtent(rows: $0.rows, columns: $0.columns) } ?? .empty
    }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        guard let painter else { return band.fill(.transparent, rows: rows, columns: columns) }
        painter.paint(into: band, firstRow: firstRow, rows: rows, columns: columns)
    }
}
