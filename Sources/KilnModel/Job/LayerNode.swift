/// One decoded layer, bottom to top in job order.
public struct LayerNode: Sendable {
    /// The kind's name (`"type"` in the job).
    public let kind: String
    public let name: String?
    /// 0…1, default 1.
    public let opacity: Animated<Double>
    /// How the layer mixes with the layers below it in its parent's stack; `.normal` is
    /// source-over.
    public let blendMode: BlendMode
    /// Multiplies the layer's pixels (after its effects, before its transitions and opacity)
    /// by another layer's coverage; nil when unmasked.
    public let mask: LayerMask?
    /// For a container: whether its children are composited into one picture before its
    /// opacity applies (true, the default) or composited straight into its parent, each faded
    /// by its opacity and blending with what is below the container (false).
    public let compositingGroup: Bool
    public let content: any LayerContent
    public let transform: LayerTransform
    /// Effect stages, applied in order to the layer's pixels before it is composited.
    public let effects: [EffectNode]
    /// The child layers of a container kind, bottom to top.
    public let children: [LayerNode]
    /// When the layer appears and disappears, and how; nil when it is always present.
    public let lifetime: LayerLifetime?
    /// Properties driven by the scroll phase of the scroll item this layer belongs to.
    public let scrollTransition: ModifierMappings?
    /// Properties driven by the layer's on-screen position and size.
    public let visualEffect: ModifierMappings?
    /// Symbol effects this layer carries (`symbolEffects`); a container passes them down to the
    /// symbols inside it.
    public let symbolEffects: [SymbolEffect]
    /// True when the layer drops the symbol effects inherited from enclosing layers.
    public let symbolEffectsRemoved: Bool
    public let path: JSONPath
    /// What its pixels read besides its parents and children, for frame digests.
    public internal(set) var frameInputs = FrameInputs()

    public init(
        kind: String, name: String?, opacity: Animated<Double>, blendMode: BlendMode = .normal,
        mask: LayerMask? = nil, compositingGroup: Bool = true, content: any LayerContent,
        transform: LayerTransform = .identity, effects: [EffectNode] = [], children: [LayerNode] = [],
        lifetime: LayerLifetime? = nil, scrollTransition: ModifierMappings? = nil,
        visualEffect: ModifierMappings? = nil, symbolEffects: [SymbolEffect] = [],
        symbolEffectsRemoved: Bool = false, path: JSONPath
    ) {
        self.kind = kind
        self.name = name
        self.opacity = opacity
        self.blendMode = blendMode
        self.mask = mask
        self.compositingGroup = compositingGroup
        self.content = content
        self.transform = transform
        self.effects = effects
        self.children = children
        self.lifetime = lifetime
        self.scrollTransition = scrollTransition
        self.visualEffect = visualEffect
        self.symbolEffects = symbolEffects
        self.symbolEffectsRemoved = symbolEffectsRemoved
        self.path = path
    }
}
