import KilnModel
import KilnRaster

/// What the mask transitions share: the layer is shown through a coverage (0…1 per pixel, from
/// the pixel's position or colour) that changes with the phase, as a colour stage multiplying
/// the premultiplied pixel. A mask transition's file holds its transition (identity modifier
/// values, its mask as `effects`) and its coverage; nothing else in Kiln names it.
protocol CoverageMask: Sendable {
    /// Eight pixels' coverage at `position`, from their premultiplied colour; any value (the
    /// stage clamps to 0…1).
    func coverage(
        at position: PixelPosition, r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
    ) -> SIMD8<Float>
}

/// A transition that only masks: no modifier value changes, its mask is all it adds.
public protocol MaskTransition: TransitionContent {}

extension MaskTransition {
    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        .identity
    }
}

/// A mask as a colour stage: every channel times the coverage. Its edges are sharp, so it never
/// runs on a reduced grid.
struct MaskStage<Mask: CoverageMask>: ColorStage {
    let mask: Mask

    var featureSize: Double? { nil }

    @inline(__always)
    func apply(
        _ r: inout SIMD8<Float>, _ g: inout SIMD8<Float>, _ b: inout SIMD8<Float>, _ a: inout SIMD8<Float>,
        at position: PixelPosition
    ) {
        let coverage = unit(mask.coverage(at: position, r: r, g: g, b: b, a: a))
        r *= coverage
        g *= coverage
        b *= coverage
        a *= coverage
    }
}

/// A transition's effect at one phase: its stage, built for the layer's size when the layer is
/// prepared (the transition itself does not know the size).
struct TransitionStageEffect: PixelStageEffect {
    let make: @Sendable (SIMD2<Double>) -> (any PixelStage)?

    func stage(at time: Double, layerSize: SIMD2<Double>) -> (any PixelStage)? { make(layerSize) }
}

/// How much of the layer a mask transition shows at `phase`: 0 at either far phase, 1 at rest;
/// a spring's overshoot past the far phase stays hidden.
struct MaskProgress {
    /// 0…1: the part of the way from hidden to shown.
    let shown: Double
    /// True while the layer enters (phase < 0).
    let appearing: Bool

    init(phase: Double) {
        shown = 1 - min(abs(phase), 1)
        appearing = phase < 0
    }

    /// The mask for `make`'s stage, or none once the layer is wholly shown.
    func effects<Mask: CoverageMask>(_ make: @escaping @Sendable (SIMD2<Double>) -> Mask?)
        -> [any EffectContent]
    {
        guard shown < 1 else { return [] }
        return [TransitionStageEffect { size in make(size).map { MaskStage(mask: $0) } }]
    }
}

/// Coverage of a pixel `distance` inside an edge (negative outside), the edge smoothed over
/// `width` (at least a pixel): 0.5 on the edge.
@inline(__always)
func edgeCoverage(_ distance: SIMD8<Float>, width: Float) -> SIMD8<Float> {
    distance / width + 0.5
}

/// The feathering width in the layer's space: the transition's own, or a pixel for a crisp edge.
@inline(__always)
func featherWidth(_ feather: Float, _ position: PixelPosition) -> Float {
    max(feather, position.pixelLength)
}
