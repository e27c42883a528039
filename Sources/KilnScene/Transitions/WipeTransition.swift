import Foundation
import KilnModel
import KilnRaster

/// A wipe: a straight edge crosses the layer at any angle, showing it behind the edge as it
/// enters and hiding it the same way (the edge travelling on in its direction) as it leaves.
public struct WipeTransition: MaskTransition {
    enum Key {
        static let angle = ParameterKey<Animated<Double>>("angle")
        static let feather = ParameterKey<Animated<Double>>("feather")
    }

    public static let kind = TransitionKind(
        name: "wipe",
        summary:
            "a straight edge at any angle crosses the layer, showing it as it enters and hiding it as it leaves",
        parameters: ParameterTable([
            Parameter(
                Key.angle, .constantNumber(-360...360), default: .number(0),
                help:
                    "degrees of the direction the edge travels, clockwise from left-to-right (90: top to bottom)"
            ),
            Parameter(
                Key.feather, .constantNumber(0...4096), default: .number(0),
                help: "pixels of soft edge (0: a crisp edge, smoothed over a pixel)"),
        ]), shorthand: Key.angle.name, example: #"{"wipe": {"angle": 30, "feather": 40}}"#
    ) { parameters, _ in
        Self(
            angle: parameters[Key.angle].value(at: 0), feather: parameters[Key.feather].value(at: 0)
        )
    }

    public let angle: Double
    public let feather: Double

    public func effects(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> [any EffectContent]
    {
        let progress = MaskProgress(phase: phase), feather = Float(feather)
        let radians = angle * .pi / 180
        let direction = SIMD2(cos(radians), sin(radians))
        return progress.effects { size in
            // How far along the direction the layer's corners lie: the edge travels from the first
            // to the last.
            let along = [SIMD2(0, 0), SIMD2(size.x, 0), SIMD2(0, size.y), size].map { ($0 * direction).sum() }
            return Edge(
                direction: SIMD2<Float>(direction), start: Float(along.min() ?? 0),
                length: Float(
                    (along.max() ?? 0) - (along.min() ?? 0)),
                shown: Float(progress.shown), appearing: progress.appearing, feather: feather)
        }
    }

    struct Edge: CoverageMask {
        let direction: SIMD2<Float>
        let start: Float
        let length: Float
        let shown: Float
        let appearing: Bool
        let feather: Float

        @inline(__always)
        func coverage(
            at position: PixelPosition, r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
        ) -> SIMD8<Float> {
            let width = featherWidth(feather, position)
            let along = position.x * direction.x + position.y * direction.y
            // Entering, the part behind the edge shows; leaving, the part ahead of it.
            let travelled = appearing ? shown : 1 - shown
            let edge = start - width / 2 + travelled * (length + width)
            return edgeCoverage(appearing ? edge - along : along - edge, width: width)
        }
    }
}
