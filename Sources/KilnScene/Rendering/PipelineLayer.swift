import KilnRaster

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
