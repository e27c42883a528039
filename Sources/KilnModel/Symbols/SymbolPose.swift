/// How one layer of a symbol (or the whole symbol) deviates from rest at one instant.
public struct SymbolPose: Sendable, Equatable {
    public var scale: SIMD2<Double> = .one
    /// Unit point of the box the scale turns about: the symbol's box for `whole`, the layer's
    /// bounds for a layer.
    public var anchor: SIMD2<Double> = SIMD2(0.5, 0.5)
    /// In symbol heights (the box height), y down.
    public var offset: SIMD2<Double> = .zero
    public var opacity: Double = 1

    public init(
        scale: SIMD2<Double> = .one, anchor: SIMD2<Double> = SIMD2(0.5, 0.5), offset: SIMD2<Double> = .zero,
        opacity: Double = 1
    ) {
        self.scale = scale
        self.anchor = anchor
        self.offset = offset
        self.opacity = opacity
    }

    public static let rest = SymbolPose()

    /// Nothing moves, scales or fades (the anchor of a unit scale does not matter).
    public var isRest: Bool { scale == .one && offset == .zero && opacity == 1 }

    /// Both deviations at once: scales and opacities multiply, offsets add. The anchor is that of
    /// the first pose that scales, so a pose that does not scale leaves it alone.
    public func combined(with other: SymbolPose) -> SymbolPose {
        var result = self
        if scale == .one, other.scale != .one { result.anchor = other.anchor }
        result.scale *= other.scale
        result.offset += other.offset
        result.opacity *= other.opacity
        return result
    }
}
