/// Where a layer's content goes in the frame: SwiftUI's position, anchor, scale, rotation and
/// skew, each animatable. The scene turns the values at a time into one affine map:
/// frame ← translate(position) · rotate · skew · scale · translate(−anchor · content size).
public struct LayerTransform: Sendable {
    /// Pixels; nil means the centre of the frame.
    public var position: Animated<Point2>?
    /// Unit point of the content (0…1 in each axis) that sits at `position`; default the centre.
    public var anchor: Animated<Point2>
    public var scale: Animated<Double>
    public var scaleX: Animated<Double>
    public var scaleY: Animated<Double>
    /// Degrees, clockwise on screen.
    public var rotation: Animated<Double>
    public var skewX: Animated<Double>
    public var skewY: Animated<Double>

    public init(
        position: Animated<Point2>? = nil, anchor: Animated<Point2> = .constant(Point2(x: 0.5, y: 0.5)),
        scale: Animated<Double> = .constant(1), scaleX: Animated<Double> = .constant(1),
        scaleY: Animated<Double> = .constant(1), rotation: Animated<Double> = .constant(0),
        skewX: Animated<Double> = .constant(0), skewY: Animated<Double> = .constant(0)
    ) {
        self.position = position
        self.anchor = anchor
        self.scale = scale
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.rotation = rotation
        self.skewX = skewX
        self.skewY = skewY
    }

    public static let identity = LayerTransform()

    enum Key {
        static let position = ParameterKey<Animated<Point2>>("position")
        static let anchor = ParameterKey<Animated<Point2>>("anchor")
        static let scale = ParameterKey<Animated<Double>>("scale")
        static let scaleX = ParameterKey<Animated<Double>>("scaleX")
        static let scaleY = ParameterKey<Animated<Double>>("scaleY")
        static let rotation = ParameterKey<Animated<Double>>("rotation")
        static let skewX = ParameterKey<Animated<Double>>("skewX")
        static let skewY = ParameterKey<Animated<Double>>("skewY")
    }

    /// The keys every layer accepts for its transform, decoded together with the kind's own.
    public static let parameters: [Parameter] = [
        Parameter(
            Key.position, .point(-65_536...65_536), default: .point(Point2(x: 0, y: 0)),
            defaultDescription:
                "the centre of the space the layer is placed in: the frame, a group's box, a stack or scroll slot",
            help:
                "pixels where the anchor sits (in the frame, or in the group's box or the stack or scroll slot)"
        ),
        Parameter(
            Key.anchor, .point(0...1), default: .point(Point2(x: 0.5, y: 0.5)),
            help: "unit point of the content placed at position, rotated and scaled about"),
        Parameter(Key.scale, .number(-100...100), default: .number(1), help: "uniform scale"),
        Parameter(
            Key.scaleX, .number(-100...100), default: .number(1), help: "horizontal scale, times scale"),
        Parameter(Key.scaleY, .number(-100...100), default: .number(1), help: "vertical scale, times scale"),
        Parameter(
            Key.rotation, .number(-36_000...36_000), default: .number(0),
            help: "degrees, clockwise on screen"),
        Parameter(Key.skewX, .number(-89...89), default: .number(0), help: "horizontal shear in degrees"),
        Parameter(Key.skewY, .number(-89...89), default: .number(0), help: "vertical shear in degrees"),
    ]

    init(_ p: DecodedParameters) {
        self.init(
            position: p.isPresent(Key.position) ? p[Key.position] : nil, anchor: p[Key.anchor],
            scale: p[Key.scale], scaleX: p[Key.scaleX], scaleY: p[Key.scaleY],
            rotation: p[Key.rotation], skewX: p[Key.skewX], skewY: p[Key.skewY])
    }
}
