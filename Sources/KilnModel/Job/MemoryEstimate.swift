/// What a render needs besides what its layers hold: the frames in flight, the encoder's
/// pictures and the offscreen images of blurred and pixel-effect layers. Charged once the
/// layers have loaded, as the working set of one moment of the render.
public enum MemoryEstimate {
    /// Effects that change colour only: a matrix applied as the layer paints, no offscreen.
    static let colorEffects: Set<String> = [
        "brightness", "contrast", "grayscale", "hueRotation", "opacity", "saturation", "tint",
    ]

    /// Bytes per pixel of one offscreen image: four Float32 planes.
    static let offscreenBytesPerPixel = 16.0

    /// Pictures an encoder keeps, in frames of 1.5 bytes a pixel (YUV 4:2:0): x264's and
    /// x265's lookahead and references dominate; the others keep a few. Kiln's GIF writer keeps
    /// about 18 bytes a pixel (what is on screen, the frame waiting for the next, the sources
    /// each pixel was drawn from) besides its 6 MB LZW table.
    static func encoderFrames(_ format: OutputFormat) -> Double {
        switch format {
        case .h264, .hevc: 60
        case .vp9: 30
        case .gif: 12
        case .prores4444, .webp, .pngSequence: 8
        }
    }

    public static func chargeRender(
        of output: OutputSettings, layers: [LayerNode], into budget: MemoryBudget, limits: ResourceLimits
    ) {
        let pixels = Double(output.width) * Double(output.height)
        // Three frames in flight and a still frame kept to be shown again (YUV, and RGBA for the
        // formats that keep transparency), the next frame's preparation and the workers' bands.
        let keepsAlpha = [.prores4444, .gif, .webp, .pngSequence].contains(output.format)
        budget.chargeWorkingSet(
            .frame, pixels * (4 * (1.5 + (keepsAlpha ? 4 : 0)) + 16),
            "frames \(output.width)×\(output.height)",
            at: .root.key("output"))
        budget.chargeWorkingSet(
            .encoder, pixels * 1.5 * encoderFrames(output.format), "\(output.format.rawValue) encoder",
            at: .root.key("output"))
        // Every shadow renders into an offscreen image of its own, besides the layer's one.
        var offscreenLayers = 0, images = 0
        visit(layers) { layer in
            let shadows = layer.effects.count { $0.kind == shadowEffect }
            let others =
                layer.effects.contains { !colorEffects.contains($0.kind) && $0.kind != shadowEffect }
                || addsStagesOrBlur(layer)
            offscreenLayers += shadows > 0 || others ? 1 : 0
            images += shadows + (others ? 1 : 0)
        }
        guard offscreenLayers > 0 else { return }
        let offscreens = min(
            Double(images) * pixels * offscreenBytesPerPixel,
            limits[.offscreenMegabytes] * MemoryBudget.megabyte)
        budget.chargeWorkingSet(
            .offscreen, offscreens, "\(images) offscreen images of \(offscreenLayers) layers",
            at: .root.key("layers"))
    }

    /// The effect whose every stage is an offscreen image of its own.
    static let shadowEffect = "shadow"

    /// Whether the layer's transition or mappings may render it offscreen: a blur, or effect
    /// stages (a mask transition, mapped effects) on top of its own effects.
    static func addsStagesOrBlur(_ layer: LayerNode) -> Bool {
        if let transition = layer.lifetime?.transition {
            let farAndHalfway = [-1.0, -0.5, 0.5, 1]
            if farAndHalfway.contains(where: {
                transition.values(phase: $0, container: .zero).blur > 0
                    || !transition.effects(phase: $0, container: .zero).isEmpty
            }) {
                return true
            }
        }
        return [layer.scrollTransition, layer.visualEffect].contains { mappings in
            guard let mappings else { return false }
            return !mappings.effects.isEmpty || mappings.mappings.contains { $0.property == .blur }
        }
    }

    /// Every layer once: the layers, their children and their masks' layers.
    static func visit(_ layers: [LayerNode], _ body: (LayerNode) -> Void) {
        for layer in layers {
            body(layer)
            visit(layer.children, body)
            if let mask = layer.mask { visit([mask.layer], body) }
        }
    }
}
