import KilnModel
import KilnRaster

/// A group: child layers composited together, then transformed, clipped and faded as one (a
/// SwiftUI container with `.clipShape`, `.opacity` and effects applied to the whole).
///
/// The group has a box (`size`, default the frame): the children are placed in it as top-level
/// layers are in the frame, the group's anchor refers to it, and the clip shape fills it.
public struct GroupLayer: LayerContent {
    /// `none` or one of the shape forms (same names, same geometry).
    public enum Clip: String, Sendable, CaseIterable {
        case none, rect, roundedRect, circle, capsule
    }

    public let size: Animated<Point2>?
    public let clip: Clip
    public let cornerRadius: Animated<Double>
    /// Shows the children as a camera sees them, inside the box (and its clip).
    public let camera: Camera?

    enum Key {
        static let size = ParameterKey<Animated<Point2>>("size")
        static let clip = ParameterKey<String>("clip")
        static let cornerRadius = ParameterKey<Animated<Double>>("cornerRadius")
        static let camera = ParameterKey<JSONNode?>("camera")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.size, .point(0...16_384), default: .point(Point2(x: 0, y: 0)),
            defaultDescription: "the frame's size",
            help: "[width, height] of the group's box in pixels"),
        Parameter(
            Key.clip, .choice(Clip.allCases.map(\.rawValue)), default: .string("none"),
            help:
                "clip the children to this shape filling the box, with anti-aliased edges: none, rect, roundedRect, circle, capsule"
        ),
        Parameter(
            Key.cornerRadius, .number(0...8_192), default: .number(0),
            help: "corner radius of a roundedRect clip in pixels"),
        Parameter(
            Key.camera, .structured(Camera.parameterShape, schema: ValueSchema.object(Camera.table)),
            default: .string("none"),
            help: "a camera over the children, looking at a point of the box (see the job's camera)"),
    ])

    public static let kind = LayerKind(
        name: "group", summary: "child layers composited, transformed, clipped and faded as one",
        parameters: parameters, containsLayers: true
    ) { params, _, context in
        var camera: Camera?
        if let node = params.node(Key.camera) {
            guard let decoded = Camera.decode(node, path: params.path(Key.camera), context: context) else {
                return nil
            }
            camera = decoded
        }
        return GroupLayer(
            size: params.isPresent(Key.size) ? params[Key.size] : nil,
            clip: Clip(rawValue: params[Key.clip]) ?? .none, cornerRadius: params[Key.cornerRadius],
            camera: camera)
    }

    public init(
        size: Animated<Point2>?, clip: Clip = .none, cornerRadius: Animated<Double> = .constant(0),
        camera: Camera? = nil
    ) {
        self.size = size
        self.clip = clip
        self.cornerRadius = cornerRadius
        self.camera = camera
    }

    public func boxSize(at time: Double, canvas: Canvas) -> SIMD2<Double> {
        guard let size else { return canvas.sceneSize }
        let s = size.value(at: time)
        return SIMD2(max(s.x, 0), max(s.y, 0))
    }

    func prepare(
        at time: Double, canvas: Canvas, box: SIMD2<Double>, transform: Affine2D, children: LayerStack
    ) -> any PreparedLayer {
        var mask: RoundedRectPainter?
        if let form = ShapeLayer.Form(rawValue: clip.rawValue) {
            let (size, radius, place) = form.outline(
                in: box, cornerRadius: cornerRadius.value(at: time), transform: transform)
            mask = RoundedRectPainter(
                size: size, cornerRadius: radius, frameFromLocal: place, fill: SIMD4(1, 1, 1, 1),
                stroke: SIMD4(),
                strokeWidth: 0, frameWidth: canvas.width, frameHeight: canvas.height)
            // A clip that covers nothing hides the whole group.
            if mask == nil { return PreparedGroup(children: LayerStack(items: []), clip: nil) }
        }
        return PreparedGroup(children: children, clip: mask)
    }
}

struct PreparedGroup: PreparedLayer {
    let children: LayerStack
    let clip: RoundedRectPainter?
    /// A photo card: one plain image cut by the clip, painted in one pass with the clip's
    /// coverage instead of painting the image, then clipping, then compositing.
    private let clippedImage: (painter: ImagePainter?, opacity: Float, tint: SIMD4<Float>)?
    let extent: PixelExtent?

    init(children: LayerStack, clip: RoundedRectPainter?) {
        self.children = children
        self.clip = clip
        if clip != nil, children.items.count == 1, let item = children.items.first, item.colors == nil,
            item.offscreen == nil, item.blend == nil, let image = item.layer as? PreparedImage
        {
            clippedImage = (image.painter, item.opacity, image.tint)
        } else {
            clippedImage = nil
        }
        if let clip {
            let clipped = PixelExtent(rows: clip.rows, columns: clip.columns)
            extent = children.extent.map { $0.intersection(clipped) } ?? clipped
        } else {
            extent = children.extent
        }
    }

    func paintOver(
        into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, opacity: Float, pool: BandPool
    ) -> Bool {
        // Without a clip and unfaded, compositing the children one by one onto the band is
        // compositing the group (source-over is associative): no scratch band, no extra passes.
        // Children that blend mix with the group's other children only, so they need the group
        // painted on its own.
        if clip == nil, opacity == 1, !children.blends {
            children.composite(onto: band, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
            return true
        }
        guard let card = clippedImage else { return false }
        card.painter?.paint(
            into: band, firstRow: firstRow, rows: rows, columns: columns, clip: clip, over: true,
            opacity: card.opacity * opacity, tint: card.tint)
        return true
    }

    func collectOffscreens(into list: inout [Offscreen]) { children.collectOffscreens(into: &list) }

    /// A photo card paints from its picture, its fade, its tint and its clip alone, so a card
    /// that rests (between a carousel's advances) keeps its blurred offscreen from frame to frame.
    var contentKey: LayerContentKey? {
        guard let card = clippedImage, let painter = card.painter, let clip else { return nil }
        return .clippedImage(painter.inputs, opacity: card.opacity, tint: card.tint, clip: clip)
    }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        guard let clip else {
            return children.paint(into: band, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
        }
        if let card = clippedImage {
            guard let painter = card.painter else {
                return band.fill(.transparent, rows: rows, columns: columns)
            }
            painter.paint(
                into: band, firstRow: firstRow, rows: rows, columns: columns, clip: clip, over: false,
                opacity: card.opacity, tint: card.tint)
            return
        }
        // Children only matter inside the clip: a clipped card costs only the rows and columns
        // it covers. Clipping clears everything outside the shape, which also clears what the
        // children left outside those columns.
        let inside = columns.clamped(to: clip.columns)
        if clip.rows.upperBound <= firstRow || clip.rows.lowerBound >= firstRow + rows || inside.isEmpty {
            return band.fill(.transparent, rows: rows, columns: columns)
        }
        children.paint(into: band, firstRow: firstRow, rows: rows, columns: inside, pool: pool)
        clip.clip(band, firstRow: firstRow, rows: rows, columns: columns)
    }
}
