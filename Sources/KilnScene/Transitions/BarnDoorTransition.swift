import KilnModel
import KilnRaster

/// Barn doors: the layer shows through an opening that widens from its centre line to its
/// edges as it enters, and closes back to the centre line as it leaves.
public struct BarnDoorTransition: MaskTransition {
    public enum Axis: String, Sendable, CaseIterable {
        /// Doors hinged on the left and right edges, opening from a vertical centre line.
        case vertical
        /// Doors hinged on the top and bottom edges, opening from a horizontal centre line.
        case horizontal
    }

    enum Key {
        static let axis = ParameterKey<String>("axis")
        static let feather = ParameterKey<Animated<Double>>("feather")
    }

    public static let kind = TransitionKind(
        name: "barnDoor",
        summary: "an opening widens from the layer's centre line to its edges; closes back as it leaves",
        parameters: ParameterTable([
            Parameter(
                Key.axis, .choice(Axis.allCases.map(\.rawValue)), default: .string("vertical"),
                help:
                    "vertical: the opening's edges are vertical (it widens left and right); horizontal: up and down"
            ),
            Parameter(
                Key.feather, .constantNumber(0...4096), default: .number(0),
                help: "pixels of soft edge (0: a crisp edge, smoothed over a pixel)"),
        ]), shorthand: Key.axis.name, example: #"{"barnDoor": {"axis": "horizontal", "feather": 8}}"#
    ) { parameters, _ in
        Axis(rawValue: parameters[Key.axis]).map {
            Self(axis: $0, feather: parameters[Key.feather].value(at: 0))
        }
    }

    public let axis: Axis
    public let feather: Double

    public func effects(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> [any EffectContent]
    {
        let progress = MaskProgress(phase: phase), feather = Float(feather), vertical = axis == .vertical
        return progress.effects { size in
            Opening(
                vertical: vertical, half: Float(vertical ? size.x : size.y) / 2, shown: Float(progress.shown),
                feather: feather)
        }
    }

    struct Opening: CoverageMask {
        let vertical: Bool
        /// Half the layer's extent across the opening: from the centre line to an edge.
        let half: Float
        let shown: Float
        let feather: Float

        @inline(__always)
        func coverage(
            at position: PixelPosition, r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
        ) -> SIMD8<Float> {
            let width = featherWidth(feather, position)
            let opening = shown * (half + width) - width / 2
            let offset = (vertical ? position.x : position.y) - half
            let fromCentre = offset.replacing(with: -offset, where: offset .< 0)
            return edgeCoverage(opening - fromCentre, width: width)
        }
    }
}
