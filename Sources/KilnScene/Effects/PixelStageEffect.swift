import KilnModel
import KilnRaster

/// An effect that becomes a stage of the layer's pixel pipeline: a colour function that is not a
/// matrix (gradient map), a distortion (shear, wave, pixelate) or a layer effect that samples the
/// layer elsewhere (ripple, background warp). Positions and sizes are in the layer's own space.
/// The effect's file holds its stage type too (a `DistortionStage`, a `ColorStage`, or a
/// `PixelStage` that does both), so one file is the whole effect.
public protocol PixelStageEffect: EffectContent {
    /// The stage at `time` for a layer of `size`; nil when it would change nothing (amplitude or
    /// strength 0, a ripple before its trigger), so the layer is then painted as without it.
    func stage(at time: Double, layerSize: SIMD2<Double>) -> (any PixelStage)?

    /// What distortions sample outside the layer: transparent, or its nearest edge pixel.
    var edges: PlanarSampler.Edges { get }
}

extension PixelStageEffect {
    public var edges: PlanarSampler.Edges { .transparent }
}

/// Shared parameter of the distorting effects.
let edgesKey = ParameterKey<String>("edges")
let edgesParameter = Parameter(
    edgesKey, .choice(PlanarSampler.Edges.allCases.map(\.rawValue)), default: .string("transparent"),
    help: "what samples outside the layer read: transparent, or clamp (the nearest edge pixel)")
