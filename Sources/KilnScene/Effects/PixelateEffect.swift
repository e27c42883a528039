import KilnModel
import KilnRaster

/// A distortion effect: the mosaic of demo videos. The layer is cut into square blocks of `size`
/// pixels from its top-left corner, and every pixel of a block takes the colour at the block's
/// centre (sampled bilinearly, so a block whose centre falls between pixels blends the two to
/// four pixels there). Sampling the centre rather than averaging the block keeps it one
/// position mapping, evaluated in the same single pass as the other stages; a block cut by the
/// layer's edge takes the centre of its part inside the layer, so the edge stays where it was.
/// Blocks are in the layer's own pixels: they scale and turn with the layer.
public struct PixelateEffect: PixelStageEffect {
    public let size: Animated<Double>

    enum Key {
        static let size = ParameterKey<Animated<Double>>("size")
    }

    public static let kind = EffectKind(
        name: "pixelate", summary: "cuts the layer into square blocks of one colour each (a mosaic)",
        parameters: ParameterTable([
            Parameter(
                Key.size, .number(1...4096), default: .number(16),
                help:
                    "block width and height in the layer's own pixels, from its top-left corner; each block takes the colour at its centre (a block cut by the layer's edge, the centre of its part inside); 1 = unchanged"
            )
        ]), shorthand: Key.size.name
    ) { p, _, _ in PixelateEffect(size: p[Key.size]) }

    public func stage(at time: Double, layerSize: SIMD2<Double>) -> (any PixelStage)? {
        let size = size.value(at: time)
        guard size > 1 else { return nil }
        return Pixelation(size: Float(size), layerSize: SIMD2<Float>(layerSize))
    }
}

/// Each position to the centre of its block (`PixelateEffect`): the blocks are `size` wide from
/// the layer's origin, cut at its far edges; positions outside the layer stay where they are.
public struct Pixelation: DistortionStage {
    public let size: Float
    let inverseSize: Float
    let layerSize: SIMD2<Float>

    public init(size: Float, layerSize: SIMD2<Float>) {
        self.size = max(size, 1)
        inverseSize = 1 / self.size
        self.layerSize = SIMD2(max(layerSize.x, 1), max(layerSize.y, 1))
    }

    /// Content only moves within its block, inside the layer: the layer's area does not grow.
    public var reach: Double { 0 }
    /// Not smooth at any scale: the mapping jumps at every block edge.
    public var featureSize: Double? { nil }

    @inline(__always)
    public func mapBack(_ x: inout SIMD8<Float>, _ y: inout SIMD8<Float>) {
        x = centre(x, extent: layerSize.x)
        y = centre(y, extent: layerSize.y)
    }

    /// The centre of the part inside 0…`extent` of the block holding each of `v`.
    @inline(__always)
    private func centre(_ v: SIMD8<Float>, extent: Float) -> SIMD8<Float> {
        let low = floorOfSmall(v * inverseSize) * size
        let high = (low + size).replacing(with: extent, where: low + size .> extent)
        return ((low + high) * 0.5).replacing(with: v, where: v .>= extent)
    }
}
