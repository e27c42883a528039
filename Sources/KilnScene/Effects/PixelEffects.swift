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
let edgesParameter = Parameter(
    "edges", .choice(PlanarSampler.Edges.allCases.map(\.rawValue)), default: .string("transparent"),
    help: "what samples outside the layer read: transparent, or clamp (the nearest edge pixel)")

/// A layer drawn through pixel stages: its content is rendered offscreen first (as a blurred
/// layer is), then each band samples it through the stages in one pass.
struct PipelineLayer: PreparedLayer {
    let source: Offscreen
    let pipeline: PixelPipeline
    let edges: PlanarSampler.Edges
    let extent: PixelExtent?

    init(
        source: Offscreen, pipeline: PixelPipeline, edges: PlanarSampler.Edges, frameFromLocal: Affine2D,
        canvas: Canvas
    ) {
        self.source = source
        source.packsForSampling = true
        self.pipeline = pipeline
        self.edges = edges
        // Clamped sampling smears the edge outward without end, so the result keeps the layer's
        // area; transparent sampling lets moved content reach as far as the stages move it.
        extent =
            edges == .clamp
            ? source.extent
            : source.extent.grown(by: pipeline.reach(frameFromLocal: frameFromLocal), within: canvas)
    }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        guard let image = source.image, let texels = source.texels, let extent, !source.extent.isEmpty,
            !extent.isEmpty
        else {
            band.fill(.transparent, rows: rows, columns: columns)
            return
        }
        let sampler = PlanarSampler(
            image: image, rows: source.extent.rows, columns: source.extent.columns, edges: edges,
            texels: texels)
        pipeline.paint(
            into: band, firstRow: firstRow, rows: rows, columns: columns,
            extent: (extent.rows, extent.columns), source: sampler)
    }

    func collectOffscreens(into list: inout [Offscreen]) {
        source.layer.collectOffscreens(into: &list)
        list.append(source)
    }
}

/// A blurred layer's result as a layer of its own, for stages that come after the blur.
struct OffscreenLayer: PreparedLayer {
    let offscreen: Offscreen

    var extent: PixelExtent? { offscreen.extent }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        band.fill(.transparent, rows: rows, columns: columns)
        offscreen.composite(
            onto: band, firstRow: firstRow, rows: rows, columns: columns, colors: nil, opacity: 1)
    }

    func collectOffscreens(into list: inout [Offscreen]) {
        offscreen.layer.collectOffscreens(into: &list)
        list.append(offscreen)
    }
}
