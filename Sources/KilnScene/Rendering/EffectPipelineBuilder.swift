import KilnModel
import KilnRaster

/// Turns a layer's effect stages, in the order written, into what paints it: colour matrices
/// compose, a run of pixel stages becomes one sampling pass over the content rendered
/// offscreen, and blurs (which need the whole layer) render the stages before them offscreen.
/// Consecutive blurs combine into one (their variances add).
struct EffectPipelineBuilder {
    private var current: any PreparedLayer
    /// Colours to apply to `current` before anything else.
    private var pending: ColorMatrix?
    /// Pixel stages after `pending`, not yet turned into a sampling pass.
    private var stages: [any PixelStage] = []
    private var edges = PlanarSampler.Edges.transparent
    /// Blur after `stages`, not yet applied.
    private var variance = 0.0
    /// Shadows of `current` with `pending` applied, not yet applied: consecutive shadows are one
    /// set, all cast by the same layer.
    private var shadows: [ShadowCast] = []
    private let frameFromLocal: Affine2D
    private let layerSize: SIMD2<Double>
    private let canvas: Canvas

    init(content: any PreparedLayer, frameFromLocal: Affine2D, layerSize: SIMD2<Double>, canvas: Canvas) {
        current = content
        self.frameFromLocal = frameFromLocal
        self.layerSize = layerSize
        self.canvas = canvas
    }

    mutating func add(color matrix: ColorMatrix) {
        applyShadows()
        applyBlur()
        if stages.isEmpty {
            pending = matrix.concatenating(pending ?? .identity)
        } else {
            stages.append(matrix)
        }
    }

    mutating func add(blurRadius radius: Double) {
        guard radius > 0 else { return }
        applyShadows()
        applyStages()
        variance += radius * radius
    }

    /// One effect at `time`, by what it renders as: a colour matrix, a blur or a pixel stage.
    /// `name` says whose effect it is if it renders as none of them (a programming error).
    mutating func add(_ effect: any EffectContent, at time: Double, named name: String) {
        switch effect {
        case let fixed as EffectAtTime:
            add(fixed.content, at: fixed.time, named: fixed.kind)
        case let color as any ColorEffect:
            add(color: color.matrix(at: time))
        case let blur as BlurEffect:
            add(blurRadius: max(blur.radius.value(at: time), 0) * canvas.lengthScale)
        case let shadow as ShadowEffect:
            add(shadow: shadow.cast(at: time, lengthScale: canvas.lengthScale))
        case let stage as any PixelStageEffect:
            add(stage: stage.stage(at: time, layerSize: layerSize), edges: stage.edges)
        default:
            preconditionFailure("effect '\(name)' has no renderer")
        }
    }

    /// `stage` nil is a stage that changes nothing at this time: it is left out.
    mutating func add(stage: (any PixelStage)?, edges: PlanarSampler.Edges) {
        guard let stage else { return }
        applyShadows()
        applyBlur()
        stages.append(stage)
        // One sampling pass serves the whole run, so one clamping stage makes it clamp.
        if stage.movesPixels && edges == .clamp { self.edges = .clamp }
    }

    /// `cast` nil is a shadow that shows nothing at this time: it is left out.
    mutating func add(shadow cast: ShadowCast?) {
        guard let cast else { return }
        applyStages()
        applyBlur()
        shadows.append(cast)
    }

    /// Masks the layer with everything added so far by `mask` (an item prepared in the
    /// layer's box).
    mutating func add(mask: PreparedItem, coverage: Compositing.Coverage, inverted: Bool) {
        applyShadows()
        applyStages()
        applyBlur()
        current = MaskedLayer(
            layer: current, colors: pending, mask: mask, coverage: coverage, inverted: inverted)
        pending = nil
    }

    /// The prepared item: the layer with everything applied, faded by `opacity`, then the
    /// modifiers' colours, mixed with what is below it by `blend`.
    mutating func item(opacity: Float, modifierColors: ColorMatrix?, blend: BlendFormula?) -> PreparedItem {
        applyShadows()
        applyStages()
        dropIdentityBlur()
        if variance > 0 {
            let blur = GaussianBlur(radius: variance.squareRoot())
            let offscreen = Offscreen(layer: current, colors: pending, blur: blur, canvas: canvas)
            return PreparedItem(
                layer: current, opacity: opacity, colors: modifierColors, offscreen: offscreen, blend: blend)
        }
        var colors = pending
        if let modifierColors { colors = modifierColors.concatenating(colors ?? .identity) }
        // Colours that only scale every channel alike (an opacity effect) are a fade: composited
        // with the layer's opacity instead of a pass over the layer of their own.
        var opacity = opacity
        if let scale = colors?.uniformScale, scale >= 0, scale <= 1 {
            opacity *= Float(scale)
            colors = nil
        }
        // A blurred layer followed by colours only composites straight from its offscreen image.
        if let blurred = current as? OffscreenLayer {
            return PreparedItem(
                layer: blurred.offscreen.layer, opacity: opacity, colors: colors,
                offscreen: blurred.offscreen,
                blend: blend)
        }
        return PreparedItem(layer: current, opacity: opacity, colors: colors, blend: blend)
    }

    private mutating func applyStages() {
        guard !stages.isEmpty else { return }
        defer {
            stages = []
            edges = .transparent
        }
        // A layer scaled to nothing shows nothing whatever its stages do.
        guard let pipeline = PixelPipeline(stages: stages, frameFromLocal: frameFromLocal) else { return }
        // Stages straight after a large blur may run on a reduced grid, reading the blur's reduced
        // copy; colours between the blur and the stages become the first stage there.
        if let blurred = current as? OffscreenLayer,
            let reducedPipeline = PixelPipeline(
                stages: (pending.map { [$0 as any PixelStage] } ?? []) + stages,
                frameFromLocal: frameFromLocal),
            let reduced = ReducedPipelineLayer.make(
                blurred: blurred.offscreen, pipeline: reducedPipeline, edges: edges,
                frameFromLocal: frameFromLocal,
                canvas: canvas)
        {
            current = reduced
            pending = nil
            return
        }
        let source = Offscreen(layer: current, colors: pending, blur: GaussianBlur(radius: 0), canvas: canvas)
        current = PipelineLayer(
            source: source, pipeline: pipeline, edges: edges, frameFromLocal: frameFromLocal, canvas: canvas)
        pending = nil
    }

    /// A blur too small to change a pixel (`GaussianBlur.isIdentity`, such as a spring settling
    /// towards 0) is left out: an offscreen for it would only add a paint and a composite of the
    /// layer's whole extent.
    private mutating func dropIdentityBlur() {
        if variance > 0, GaussianBlur(radius: variance.squareRoot()).isIdentity { variance = 0 }
    }

    private mutating func applyShadows() {
        guard !shadows.isEmpty else { return }
        current = ShadowedLayer(layer: current, colors: pending, casts: shadows, canvas: canvas)
        pending = nil
        shadows = []
    }

    private mutating func applyBlur() {
        dropIdentityBlur()
        guard variance > 0 else { return }
        let offscreen = Offscreen(
            layer: current, colors: pending, blur: GaussianBlur(radius: variance.squareRoot()), canvas: canvas
        )
        current = OffscreenLayer(offscreen: offscreen)
        pending = nil
        variance = 0
    }
}
