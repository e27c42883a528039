import KilnModel
import KilnRaster

/// A dissolve: the layer appears grain by grain, each spot of a seeded noise pattern showing
/// once the transition passes its threshold; leaving, the spots vanish in the same order.
public struct DissolveTransition: MaskTransition {
    enum Key {
        static let grain = ParameterKey<Animated<Double>>("grain")
        static let softness = ParameterKey<Animated<Double>>("softness")
        static let seed = ParameterKey<Int>("seed")
    }

    public static let kind = TransitionKind(
        name: "dissolve",
        summary: "the layer appears spot by spot through a noise threshold; vanishes the same way",
        parameters: ParameterTable([
            Parameter(
                Key.grain, .constantNumber(0.5...512), default: .number(6),
                help: "the size of the noise's spots in pixels"),
            Parameter(
                Key.softness, .constantNumber(0...1), default: .number(0.1),
                help: "how gradually a spot fades in, as a part of the noise's range (0: at once)"),
            Parameter(Key.seed, .integer(0...1_000_000), default: .integer(0), help: "which noise pattern"),
        ]), shorthand: Key.grain.name, example: #"{"dissolve": {"grain": 8, "softness": 0.2}}"#
    ) { parameters, _ in
        Self(
            grain: parameters[Key.grain].value(at: 0),
            softness: parameters[Key.softness].value(at: 0),
            seed: parameters[Key.seed])
    }

    public let grain: Double
    public let softness: Double
    public let seed: Int

    public func effects(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> [any EffectContent]
    {
        let progress = MaskProgress(phase: phase)
        let spots = Spots(
            cell: Float(grain), softness: Float(max(softness, 1e-3)), seed: UInt32(truncatingIfNeeded: seed),
            shown: Float(progress.shown))
        return progress.effects { _ in spots }
    }

    struct Spots: CoverageMask {
        let cell: Float
        let softness: Float
        let seed: UInt32
        let shown: Float

        /// A value in 0…1 per lattice point: an integer hash of its coordinates and the seed.
        @inline(__always)
        func lattice(_ i: SIMD8<Int32>, _ j: SIMD8<Int32>) -> SIMD8<Float> {
            var h = SIMD8<UInt32>(truncatingIfNeeded: i) &* 0x9E37_79B1
            h ^= SIMD8<UInt32>(truncatingIfNeeded: j) &* 0x85EB_CA77
            h ^= SIMD8(repeating: seed &* 0xC2B2_AE3D)
            h ^= h &>> 15
            h &*= 0x2C1B_3C6D
            h ^= h &>> 12
            h &*= 0x297A_2D39
            h ^= h &>> 15
            return SIMD8<Float>(h &>> 8) / 16_777_216
        }

        @inline(__always)
        func coverage(
            at position: PixelPosition, r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
        ) -> SIMD8<Float> {
            // Value noise: the lattice's values, smoothly interpolated between its points.
            let u = between(position.x / cell, -4_000_000, 4_000_000)
            let v = between(position.y / cell, -4_000_000, 4_000_000)
            let u0 = floorOfSmall(u), v0 = floorOfSmall(v)
            let i = wholeNumberToInt(u0), j = wholeNumberToInt(v0)
            func smooth(_ t: SIMD8<Float>) -> SIMD8<Float> { t * t * (3 - 2 * t) }
            let fu = smooth(u - u0), fv = smooth(v - v0)
            let one = SIMD8<Int32>(repeating: 1)
            let topLeft = lattice(i, j), bottomLeft = lattice(i, j &+ one)
            let top = topLeft + (lattice(i &+ one, j) - topLeft) * fu
            let bottom = bottomLeft + (lattice(i &+ one, j &+ one) - bottomLeft) * fu
            let noise = top + (bottom - top) * fv
            // From every spot hidden (shown 0) to every spot shown (shown 1), softness included.
            return (shown * (1 + softness) - noise) / softness
        }
    }
}
