/// A camera over a scene (the job's top-level layers, or a group's children): the layout point it
/// looks at, how much it magnifies and how far it is turned, each animatable. The scene renders
/// as the camera sees it:
/// frame ← translate(box centre) · rotate(−rotation) · scale(zoom) · translate(−position),
/// so `position` lands at the centre of the frame (or the group's box), zoom 2 doubles every
/// distance from it, and turning the camera clockwise turns the picture counter-clockwise.
public struct Camera: Sendable {
    /// Layout units of the scene; nil means the centre of the box (the camera shows the layout
    /// as it is).
    public var position: Animated<Point2>?
    public var zoom: Animated<Double>
    /// Degrees, clockwise on screen.
    public var rotation: Animated<Double>

    public init(
        position: Animated<Point2>? = nil, zoom: Animated<Double> = .constant(1),
        rotation: Animated<Double> = .constant(0)
    ) {
        self.position = position
        self.zoom = zoom
        self.rotation = rotation
    }

    /// A spring may overshoot its keyframes; the zoom used is kept inside this range so the
    /// picture never collapses to a point or flips.
    public static let zoomRange = 0.01...100.0

    enum Key {
        static let position = ParameterKey<Animated<Point2>>("position")
        static let zoom = ParameterKey<Animated<Double>>("zoom")
        static let rotation = ParameterKey<Animated<Double>>("rotation")
    }

    public static let table = ParameterTable([
        Parameter(
            Key.position, .point(-65_536...65_536), default: .point(Point2(x: 0, y: 0)),
            defaultDescription: "the centre of the box: the frame, or the group's box",
            help: "the layout point the camera looks at, shown at the centre of the frame or group box"),
        Parameter(
            Key.zoom, .number(zoomRange), default: .number(1),
            help: "magnification: 1 = as laid out, 2 = everything twice as large about position"),
        Parameter(
            Key.rotation, .number(-36_000...36_000), default: .number(0),
            help: "degrees the camera turns, clockwise; the scene turns the other way"),
    ])

    /// How `camera` is described where it is a key (the job's top level, a group).
    public static let parameterShape = "object {\"position\", \"zoom\", \"rotation\"}"

    /// The `camera` object at `path`, or nil when it has errors (reported in `context`).
    public static func decode(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> Camera? {
        let before = context.diagnostics.count
        let p = table.decode(node, path: path, context: context)
        guard context.diagnostics.count == before else { return nil }
        return Camera(
            position: p.isPresent(Key.position) ? p[Key.position] : nil, zoom: p[Key.zoom],
            rotation: p[Key.rotation])
    }

    /// The zoom at `time`, inside `zoomRange`.
    public func zoom(at time: Double) -> Double {
        let value = zoom.value(at: time)
        return min(max(value.isNaN ? 1 : value, Self.zoomRange.lowerBound), Self.zoomRange.upperBound)
    }
}
