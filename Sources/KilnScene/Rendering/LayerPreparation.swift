import Foundation
import KilnModel
import KilnRaster

/// What preparing a layer needs to know about where it sits.
public struct PlacementContext: Sendable {
    public let time: Double
    public let canvas: Canvas
    /// Size of the space the layer is placed in (the frame, a group's box, a stack or scroll slot).
    public let container: SIMD2<Double>
    /// Maps that space into the frame.
    public let parent: Affine2D
    /// The scroll phase of the scroll item this layer belongs to, if any.
    public let scrollPhase: Double?
    /// The symbol effects enclosing layers pass down (SwiftUI's `.symbolEffect` on a container),
    /// innermost first.
    public let symbolEffects: [SymbolEffect]

    /// `container` and `parent` nil: the whole layout, placed in the frame (top-level layers).
    public init(
        time: Double, canvas: Canvas, container: SIMD2<Double>? = nil, parent: Affine2D? = nil,
        scrollPhase: Double? = nil, symbolEffects: [SymbolEffect] = []
    ) {
        self.time = time
        self.canvas = canvas
        self.container = container ?? canvas.layoutSize
        self.parent = parent ?? canvas.frameFromLayout
        self.scrollPhase = scrollPhase
        self.symbolEffects = symbolEffects
    }

    /// The context for a child placed in a `container`-sized slot that `parent` maps into the frame.
    func child(container: SIMD2<Double>, parent: Affine2D, scrollPhase: Double?? = nil) -> PlacementContext {
        PlacementContext(
            time: time, canvas: canvas, container: container, parent: parent,
            scrollPhase: scrollPhase ?? self.scrollPhase, symbolEffects: symbolEffects)
    }

    /// The same place, with `effects` reaching the layer's descendants.
    func passing(_ effects: [SymbolEffect]) -> PlacementContext {
        PlacementContext(
            time: time, canvas: canvas, container: container, parent: parent, scrollPhase: scrollPhase,
            symbolEffects: effects)
    }
}

extension LayerNode {
    /// A top-level layer prepared at `time`.
    public func prepare(at time: Double, canvas: Canvas) -> PreparedItem? {
        prepare(in: PlacementContext(time: time, canvas: canvas))
    }

    /// What the layer adds to its parent's stack for one frame: its item, or, for a container
    /// that is not a compositing group, its children's items, each faded by its opacity, so that
    /// they overlap and blend with what lies below it as if placed in the parent. A container
    /// with anything that needs its picture (a clip, a mask, colours, a blur, a shadow, a blend
    /// mode) is composited first whatever the key says.
    public func prepareItems(in context: PlacementContext, into items: inout [PreparedItem]) {
        guard let item = prepare(in: context) else { return }
        guard !compositingGroup, item.blend == nil, item.colors == nil, item.offscreen == nil,
            let group = item.layer as? PreparedGroup, group.clip == nil
        else { return items.append(item) }
        for child in group.children.items {
            items.append(
                PreparedItem(
                    layer: child.layer, opacity: child.opacity * item.opacity, colors: child.colors,
                    offscreen: child.offscreen, blend: child.blend))
        }
    }

    /// The layer prepared for one frame, or nil when it shows nothing (faded out, not yet
    /// appeared, or removed).
    public func prepare(in context: PlacementContext) -> PreparedItem? {
        let time = context.time
        let symbolPresence = self.symbolPresence
        if let symbolPresence, let symbol = content as? SymbolLayer {
            // The symbol enters and leaves by its own effect, which may outlast the animation.
            if let appear = symbolPresence.appear, time < appear { return nil }
            if let disappear = symbolPresence.disappear,
                time >= disappear + symbolPresence.settleTime(layerCount: symbol.layerCount)
            {
                return nil
            }
        } else if let lifetime, lifetime.phase(at: time) == nil {
            return nil
        }
        // A composition shows nothing before its offset or after it has played.
        if let composition = content as? CompositionLayer, composition.timing.localTime(at: time) == nil {
            return nil
        }
        let size = layoutSize(at: time, canvas: context.canvas)
        let local = transform.affine(at: time, contentSize: size, container: context.container)
        let modifiers = modifierValues(
            size: size, local: local, context: context, lifetime: symbolPresence == nil ? lifetime : nil)
        let opacity = Float(min(max(self.opacity.value(at: time) * modifiers.values.opacity, 0), 1))
        guard opacity > 0 else { return nil }
        let place = context.parent.concatenating(modifiers.values.affine(around: local.apply(size / 2)))
            .concatenating(local)
        // A layer's own symbol effects come first, then those its containers pass down, unless
        // it removes them.
        let reaching = symbolEffects + (symbolEffectsRemoved ? [] : context.symbolEffects)
        let layer = prepareContent(
            size: size, place: place, context: context.passing(reaching), presence: symbolPresence)
        var pipeline = EffectPipelineBuilder(
            content: layer, frameFromLocal: place, layerSize: size, canvas: context.canvas)
        for effect in effects {
            pipeline.add(effect.content, at: time, named: effect.kind)
        }
        if let mask {
            // Laid out in the layer's box and moved with it, as SwiftUI lays out a mask in the
            // view's frame; the transitions then act on the masked layer.
            let masking = mask.layer.prepare(in: context.child(container: size, parent: place))
            if let masking {
                pipeline.add(mask: masking, coverage: mask.mode.coverage, inverted: mask.inverted)
            } else if !mask.inverted {
                // A mask that shows nothing (faded out, not yet appeared) lets nothing through.
                return nil
            }
        }
        // The modifiers (transitions, scroll transitions, visual effects) act on the layer with
        // its effects, as SwiftUI's outer modifiers do: their stages and blur come after the
        // layer's own.
        if symbolPresence == nil, let lifetime {
            for effect in lifetime.effects(at: time, container: context.container, frame: modifiers.frame) {
                pipeline.add(effect, at: time, named: "\(lifetime.transition.kind) transition")
            }
        }
        if let scrollTransition, let phase = context.scrollPhase {
            for effect in scrollTransition.effects(for: MappingInputs(phase: phase, frame: modifiers.frame)) {
                pipeline.add(effect, at: time, named: "scrollTransition")
            }
        }
        if let visualEffect {
            let inputs = MappingInputs(phase: context.scrollPhase ?? 0, frame: modifiers.frame)
            for effect in visualEffect.effects(for: inputs) {
                pipeline.add(effect, at: time, named: "visualEffect")
            }
        }
        pipeline.add(blurRadius: modifiers.values.blur * context.canvas.lengthScale)
        return pipeline.item(
            opacity: opacity, modifierColors: modifiers.values.colorMatrix, blend: blendMode.formula)
    }

    /// The transition's, scroll transition's and visual effect's modifiers combined, with the
    /// on-screen box they read (zero when none reads it).
    private func modifierValues(
        size: SIMD2<Double>, local: Affine2D, context: PlacementContext, lifetime: LayerLifetime?
    ) -> (values: ModifierValues, frame: SIMD4<Double>) {
        var values = ModifierValues.identity
        let readsGeometry =
            (lifetime?.transition.readsGeometry ?? false) || (scrollTransition?.readsGeometry ?? false)
            || visualEffect != nil
        var frame = SIMD4<Double>.zero
        if readsGeometry {
            // In the job's units, as everything it writes: a draft reads what the full size does.
            let box = context.canvas.layoutFromLocal(context.parent.concatenating(local)).bounds(ofSize: size)
            frame = SIMD4(box.min.x, box.min.y, box.max.x, box.max.y)
        }
        if let lifetime {
            values =
                lifetime.values(at: context.time, container: context.container, frame: frame) ?? .identity
        }
        if let scrollTransition, let phase = context.scrollPhase {
            values = values.combined(
                with: scrollTransition.values(for: MappingInputs(phase: phase, frame: frame)))
        }
        if let visualEffect {
            values = values.combined(
                with: visualEffect.values(for: MappingInputs(phase: context.scrollPhase ?? 0, frame: frame)))
        }
        return (values.clamped, frame)
    }

    /// A symbol layer that enters and leaves by a `symbolEffect` transition does so layer by
    /// layer itself, instead of through whole-layer modifiers.
    private var symbolPresence: SymbolPresence? {
        guard content is SymbolLayer, let lifetime,
            let transition = lifetime.transition.content as? SymbolEffectTransition
        else { return nil }
        return transition.presence(appear: lifetime.appear, disappear: lifetime.disappear)
    }

    private func prepareContent(
        size: SIMD2<Double>, place: Affine2D, context: PlacementContext, presence: SymbolPresence?
    ) -> any PreparedLayer {
        let time = context.time, canvas = context.canvas
        if let symbol = content as? SymbolLayer {
            return symbol.prepare(
                at: time, canvas: canvas, transform: place, effects: context.symbolEffects, presence: presence
            )
        }
        if let group = content as? GroupLayer {
            let inner = PlacementContext.scene(
                at: time, canvas: canvas, box: size, parent: place, camera: group.camera,
                scrollPhase: context.scrollPhase, symbolEffects: context.symbolEffects)
            return group.prepare(
                at: time, canvas: canvas, box: size, transform: place,
                children: LayerStack(items: Self.items(of: children, in: inner)))
        }
        if let composition = content as? CompositionLayer,
            let local = composition.timing.localTime(at: time)
        {
            // A scene of its own: its time, its box for what defaults to the frame, its camera;
            // what encloses it in this job (scroll phases, symbol effects) does not reach inside.
            let inner = PlacementContext.scene(
                at: local, canvas: canvas.nested(size: size), box: size, parent: place,
                camera: composition.camera, scrollPhase: nil, symbolEffects: [])
            // Cut to its box, as the job it is would be cut to its frame.
            return Self.compositionBox.prepare(
                at: local, canvas: canvas, box: size, transform: place,
                children: LayerStack(items: Self.items(of: children, in: inner)))
        }
        if let device = content as? DeviceLayer {
            // The screen (and a title) is a scene of its own box (solids fill it); scroll phases
            // and symbol effects reach it as they reach a group's children.
            return device.prepare(at: time, canvas: canvas, transform: place) { index, childPlace, box in
                guard children.indices.contains(index) else { return [] }
                let inner = PlacementContext.scene(
                    at: time, canvas: canvas.nested(size: box), box: box, parent: childPlace,
                    camera: nil, scrollPhase: context.scrollPhase, symbolEffects: context.symbolEffects)
                return Self.items(of: [children[index]], in: inner)
            }
        }
        if let stack = content as? StackLayer {
            let slots = stackSlots(at: time, canvas: canvas)
            let origins = stack.layout(slots, at: time).origins
            var items: [PreparedItem] = []
            for (child, slot) in zip(children, zip(slots, origins)) {
                // A child entering or leaving keeps its own size, centred in its shrinking slot.
                var container = slot.0.size
                container[stack.axis == .horizontal ? 0 : 1] *= min(max(slot.0.presence, 0), 1)
                child.prepareItems(
                    in: context.child(
                        container: container, parent: place.concatenating(.translation(slot.1.x, slot.1.y))),
                    into: &items)
            }
            return PreparedGroup(children: LayerStack(items: items), clip: nil)
        }
        if let scroll = content as? ScrollLayer {
            let sizes = children.map { $0.layoutSize(at: time, canvas: canvas) }
            let slots = scroll.layout(sizes, viewport: size, at: time)
            var items: [PreparedItem] = []
            for (child, slot) in zip(children, slots) {
                // Far-off items are skipped unless something of their own could move them into
                // view (a scroll transition, a visual effect or a transition with an offset).
                let canMove =
                    child.scrollTransition != nil || child.visualEffect != nil || child.lifetime != nil
                guard slot.isNearViewport || !scroll.clips || canMove else { continue }
                child.prepareItems(
                    in: context.child(
                        container: slot.size,
                        parent: place.concatenating(.translation(slot.origin.x, slot.origin.y)),
                        scrollPhase: .some(slot.phase)),
                    into: &items)
            }
            return scroll.prepare(
                canvas: canvas, viewport: size, transform: place, items: LayerStack(items: items))
        }
        guard let content = content as? any LayerRendering else {
            preconditionFailure("layer kind '\(kind)' is registered without a renderer")
        }
        return content.prepare(at: time, canvas: canvas, transform: place)
    }

    private static let compositionBox = GroupLayer(size: nil, clip: .rect)

    /// The size a layout gives this layer: its content's own size (not changed by its transform).
    public func layoutSize(at time: Double, canvas: Canvas) -> SIMD2<Double> {
        if let group = content as? GroupLayer { return group.boxSize(at: time, canvas: canvas) }
        if let composition = content as? CompositionLayer { return composition.size }
        if let device = content as? DeviceLayer { return device.geometry.box }
        if let scroll = content as? ScrollLayer { return scroll.viewportSize(at: time, canvas: canvas) }
        if let stack = content as? StackLayer {
            return stack.layout(stackSlots(at: time, canvas: canvas), at: time).box
        }
        if let content = content as? any LayerRendering {
            return content.contentSize(at: time, canvas: canvas)
        }
        return canvas.layoutSize
    }
}

extension LayerNode {
    /// The items `layers` add to a stack in `context`, bottom to top.
    public static func items(of layers: [LayerNode], in context: PlacementContext) -> [PreparedItem] {
        var items: [PreparedItem] = []
        items.reserveCapacity(layers.count)
        for layer in layers { layer.prepareItems(in: context, into: &items) }
        return items
    }

    /// What a stack's layout needs of each of this stack's children at `time`.
    public func stackSlots(at time: Double, canvas: Canvas) -> [StackLayer.Slot] {
        children.map { child in
            StackLayer.Slot(
                size: child.layoutSize(at: time, canvas: canvas),
                baseline: child.firstBaseline(at: time, canvas: canvas),
                presence: child.lifetime?.layoutPresence(at: time) ?? 1)
        }
    }

    /// The layer's first baseline from the top of its layout box: text's and symbols' own, a
    /// stack's from its children; nil for everything else.
    public func firstBaseline(at time: Double, canvas: Canvas) -> Double? {
        if let stack = content as? StackLayer {
            let slots = stackSlots(at: time, canvas: canvas)
            return stack.firstBaseline(slots, origins: stack.layout(slots, at: time).origins)
        }
        return (content as? any LayerRendering)?.firstBaseline(at: time, canvas: canvas)
    }
}

extension LayerMask.Mode {
    var coverage: Compositing.Coverage {
        switch self {
        case .alpha: .alpha
        case .luminance: .luminance
        }
    }
}

extension ModifierValues {
    /// offset · (rotate · scale about `center`), in the layer's container space: SwiftUI's
    /// `scaleEffect` and `rotationEffect` turn about the view's centre, and `offset` moves it.
    func affine(around center: SIMD2<Double>) -> Affine2D {
        guard movesGeometry else { return .identity }
        let radians = rotation * .pi / 180
        return Affine2D.translation(center.x + offsetX, center.y + offsetY)
            .concatenating(.rotation(sin: sin(radians), cos: cos(radians)))
            .concatenating(.scale(scale * scaleX, scale * scaleY))
            .concatenating(.translation(-center.x, -center.y))
    }

    /// The colour modifiers as one matrix, in SwiftUI's modifier order; nil when they are all identity.
    var colorMatrix: ColorMatrix? {
        var matrices: [ColorMatrix] = []
        if brightness != 0 { matrices.append(BrightnessEffect.matrix(amount: brightness)) }
        if contrast != 1 { matrices.append(ContrastEffect.matrix(amount: contrast)) }
        if saturation != 1 { matrices.append(SaturationEffect.matrix(amount: saturation)) }
        if hueRotation != 0 { matrices.append(HueRotationEffect.matrix(degrees: hueRotation)) }
        if grayscale != 0 { matrices.append(GrayscaleEffect.matrix(amount: grayscale)) }
        guard let first = matrices.first else { return nil }
        return matrices.dropFirst().reduce(first) { $1.concatenating($0) }
    }
}
