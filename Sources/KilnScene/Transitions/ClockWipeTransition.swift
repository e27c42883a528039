import Foundation
import KilnModel
import KilnRaster

/// A clock wipe: a hand sweeps round a point (the centre by default) from 12 o'clock, showing the
/// layer behind it as it enters; leaving, it sweeps on and hides the layer the same way round.
public struct ClockWipeTransition: MaskTransition {
    enum Key {
        static let center = ParameterKey<Animated<Point2>>("center")
        static let startAngle = ParameterKey<Animated<Double>>("startAngle")
        static let clockwise = ParameterKey<Bool>("clockwise")
        static let feather = ParameterKey<Animated<Double>>("feather")
    }

    public static let kind = TransitionKind(
        name: "clockWipe",
        summary:
            "a hand sweeps round a point, showing the layer behind it; sweeps on to hide it as it leaves",
        parameters: ParameterTable([
            Parameter(
                Key.center, .point(0...1), default: .point(Point2(x: 0.5, y: 0.5)),
                help: "the point the hand turns about, as fractions of the layer's width and height"),
            Parameter(
                Key.startAngle, .constantNumber(-360...360), default: .number(0),
                help: "degrees clockwise from 12 o'clock where the hand starts"),
            Parameter(
                Key.clockwise, .boolean, default: .boolean(true), help: "the direction the hand sweeps"),
            Parameter(
                Key.feather, .constantNumber(0...4096), default: .number(0),
                help: "pixels of soft edge (0: a crisp edge, smoothed over a pixel)"),
        ]), example: #"{"clockWipe": {"startAngle": 0, "clockwise": true}}"#
    ) { parameters, _ in
        let center = parameters[Key.center].value(at: 0)
        return Self(
            center: SIMD2(center.x, center.y), startAngle: parameters[Key.startAngle].value(at: 0),
            clockwise: parameters[Key.clockwise], feather: parameters[Key.feather].value(at: 0))
    }

    public let center: SIMD2<Double>
    public let startAngle: Double
    public let clockwise: Bool
    public let feather: Double

    public func effects(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> [any EffectContent]
    {
        let progress = MaskProgress(phase: phase), center = center, feather = Float(feather)
        // A sector of no width would still leave half coverage along its edge.
        guard progress.shown > 0 else { return progress.effects { _ in Hidden() } }
        // The shown sector, clockwise on screen from `first` through `sweep` radians. Entering, it
        // starts at the hand's start; leaving, the hidden part grows from there.
        let sweep = 2 * Double.pi * progress.shown
        let start = startAngle * .pi / 180
        let clockwiseFirst = start + (progress.appearing ? 0 : 2 * .pi - sweep)
        // Anticlockwise, the sector mirrors about the start.
        let first = clockwise ? clockwiseFirst : 2 * start - clockwiseFirst - sweep
        return progress.effects { size in
            Sector(center: SIMD2<Float>(center * size), first: first, sweep: sweep, feather: feather)
        }
    }

    /// Nothing shown, at a far phase.
    struct Hidden: CoverageMask {
        func coverage(
            at position: PixelPosition, r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
        ) -> SIMD8<Float> { SIMD8() }
    }

    struct Sector: CoverageMask {
        /// Unit vectors (y down, clockwise positive) of the sector's first and last edges.
        let firstEdge: SIMD2<Float>
        let lastEdge: SIMD2<Float>
        let convex: Bool
        let center: SIMD2<Float>
        let feather: Float

        init(center: SIMD2<Float>, first: Double, sweep: Double, feather: Float) {
            // 0 rad is 12 o'clock: the direction (0, −1); turning clockwise on screen (y down).
            func direction(_ angle: Double) -> SIMD2<Float> { SIMD2(Float(sin(angle)), Float(-cos(angle))) }
            firstEdge = direction(first)
            lastEdge = direction(first + sweep)
            convex = sweep <= .pi
            self.center = center
            self.feather = feather
        }

        @inline(__always)
        func coverage(
            at position: PixelPosition, r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
        ) -> SIMD8<Float> {
            let width = featherWidth(feather, position)
            let x = position.x - center.x, y = position.y - center.y
            // Signed distances to the two edges' lines, positive on the sector's side: clockwise
            // of the first edge, anticlockwise of the last.
            let afterFirst = firstEdge.x * y - firstEdge.y * x
            let beforeLast = lastEdge.y * x - lastEdge.x * y
            // Up to half a turn the sector is where both hold; beyond, where either does.
            let inside =
                convex
                ? afterFirst.replacing(with: beforeLast, where: beforeLast .< afterFirst)
                : afterFirst.replacing(with: beforeLast, where: beforeLast .> afterFirst)
            return edgeCoverage(inside, width: width)
        }
    }
}
